package compiletest

import (
	"fmt"
	"iter"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/synth"
)

// TimedTown is a synthetic town of W × H street corners, 100 m apart, in
// Andorra's time zone, whose streets carry conditional tags. Every block of
// street between two corners is its own OSM way. With Random == 0 it is the
// demonstration town:
//
//   - row 0 is a secondary road, "Carrer Major", whose block from column 2
//     to 3 has motor_vehicle:conditional=no @ (Mo-Fr 07:00-09:00);
//   - column W−1 is "Carrer del Riu", drawn south to north, with
//     oneway:conditional=yes @ (Mo-Fr 16:00-18:00);
//   - row H−1 is "Avinguda Alta", maxspeed=50 with
//     maxspeed:conditional=10 @ (22:00-06:00);
//   - a restriction relation forbids turning from row 1 left into column 3
//     northward at corner (1, 3) with restriction:conditional=no_left_turn
//     @ (Mo-Fr 07:00-09:00);
//   - every other street is residential.
//
// With Random = r > 0, about r percent of the other blocks get a random
// conditional tag of those kinds (closures, one-way, speed) with random
// schedules, and as many corners a random conditional restriction: the
// town for property tests.
type TimedTown struct {
	W, H   int
	Random int    // percent of blocks given a random condition
	Seed   uint64 // for Random
	// ViaWays adds that many random restrictions with via ways (one or two
	// blocks of a row), half of them conditional, drawn from their own
	// random stream so that the rest of the town does not change.
	ViaWays int
}

// Corner returns the position of corner (row, col).
func (t TimedTown) Corner(row, col int) route.Point {
	return route.Point{townLon + float64(col)*townStepLon, townLat + float64(row)*townStepLat}
}

// CornerPairs yields every ordered pair of distinct corners; with short
// (testing.Short()), a fifth of them, the same fifth on every run.
func (t TimedTown) CornerPairs(short bool) iter.Seq2[route.Point, route.Point] {
	return func(yield func(from, to route.Point) bool) {
		n := t.H * t.W
		for a := range n {
			for b := range n {
				if a == b || (short && (a+b)%5 != 0) {
					continue
				}
				if !yield(t.Corner(a/t.W, a%t.W), t.Corner(b/t.W, b%t.W)) {
					return
				}
			}
		}
	}
}

const (
	townLon, townLat         = 1.52, 42.51
	townStepLon, townStepLat = 0.00122, 0.0009 // about 100 m each way at this latitude
)

func (t TimedTown) node(row, col int) int64 { return int64(1 + row*t.W + col) }

// schedules the random town draws from.
var townSchedules = []string{"Mo-Fr 07:00-09:00", "Sa,Su", "22:00-06:00", "Mo-Fr 16:00-18:00", "Tu,Th 10:00-14:00", "Mo-Sa 08:00-20:00; Sa 10:00-12:00"}

// WritePBF writes the town as an OSM PBF at path.
func (t TimedTown) WritePBF(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fixed := func(d float64) int32 { return int32(d * 1e7) }
	ne := t.Corner(t.H-1, t.W-1)
	w, err := synth.NewPBFWriter(f, [4]int32{fixed(townLon), fixed(townLat), fixed(ne[0]), fixed(ne[1])}, "compiletest")
	if err != nil {
		return err
	}
	for r := range t.H {
		for c := range t.W {
			p := t.Corner(r, c)
			if err := w.Node(t.node(r, c), fixed(p[0]), fixed(p[1]), nil); err != nil {
				return err
			}
		}
	}
	rng := rand.New(rand.NewPCG(t.Seed, 7))
	blocks := t.blocks(rng)
	for i, b := range blocks {
		if err := w.Way(int64(i+1), []int64{b.from, b.to}, b.tags); err != nil {
			return err
		}
	}
	rels := t.restrictions(rng, blocks)
	rels = append(rels, t.viaWayRestrictions(blocks)...)
	for i, rel := range rels {
		if err := w.Relation(int64(i+1), rel.members, rel.tags); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

// block is one way: a street between two adjacent corners.
type block struct {
	from, to   int64
	row, col   int // of from
	horizontal bool
	tags       []synth.Tag
}

func (t TimedTown) blocks(rng *rand.Rand) []block {
	var out []block
	for r := range t.H {
		for c := range t.W {
			if c+1 < t.W {
				out = append(out, t.block(rng, r, c, true))
			}
			if r+1 < t.H {
				out = append(out, t.block(rng, r, c, false))
			}
		}
	}
	return out
}

func (t TimedTown) block(rng *rand.Rand, r, c int, horizontal bool) block {
	b := block{from: t.node(r, c), row: r, col: c, horizontal: horizontal}
	if horizontal {
		b.to = t.node(r, c+1)
	} else {
		b.to = t.node(r+1, c)
	}
	tags := map[string]string{"highway": "residential", "name": fmt.Sprintf("Carrer %d-%d", r, c)}
	switch {
	case horizontal && r == 0:
		tags["highway"], tags["name"] = "secondary", "Carrer Major"
		if c == 2 && t.Random == 0 {
			tags["motor_vehicle:conditional"] = "no @ (Mo-Fr 07:00-09:00)"
		}
	case !horizontal && c == t.W-1:
		tags["name"] = "Carrer del Riu"
		if t.Random == 0 {
			tags["oneway:conditional"] = "yes @ (Mo-Fr 16:00-18:00)"
		}
	case horizontal && r == t.H-1:
		tags["name"], tags["maxspeed"] = "Avinguda Alta", "50"
		if t.Random == 0 {
			tags["maxspeed:conditional"] = "10 @ (22:00-06:00)"
		}
	}
	if t.Random > 0 && rng.IntN(100) < t.Random {
		randomCondition(rng, tags)
	}
	b.tags = sortedTags(tags)
	return b
}

// randomCondition adds one conditional tag of a random kind.
func randomCondition(rng *rand.Rand, tags map[string]string) {
	when := townSchedules[rng.IntN(len(townSchedules))]
	switch rng.IntN(4) {
	case 0:
		tags["motor_vehicle:conditional"] = "no @ (" + when + ")"
	case 1:
		tags["access:conditional"] = "no @ (" + when + ")"
	case 2:
		tags["oneway:conditional"] = fmt.Sprintf("%s @ (%s)", []string{"yes", "-1"}[rng.IntN(2)], when)
	default:
		tags["maxspeed"], tags["maxspeed:conditional"] = "50", fmt.Sprintf("%d @ (%s)", 5+rng.IntN(20), when)
	}
}

type relation struct {
	members []synth.Member
	tags    []synth.Tag
}

// restrictions returns the demonstration town's conditional no_left_turn,
// or for a random town one random conditional restriction per block given
// a condition.
func (t TimedTown) restrictions(rng *rand.Rand, blocks []block) []relation {
	wayAt := func(r, c int, horizontal bool) int64 {
		for i, b := range blocks {
			if b.row == r && b.col == c && b.horizontal == horizontal {
				return int64(i + 1)
			}
		}
		return 0
	}
	restrict := func(from, to, via int64, kind, when string) relation {
		return relation{members: []synth.Member{{Type: "w", ID: from, Role: "from"}, {Type: "n", ID: via, Role: "via"}, {Type: "w", ID: to, Role: "to"}},
			tags: []synth.Tag{{Key: "restriction:conditional", Value: kind + " @ (" + when + ")"}, {Key: "type", Value: "restriction"}}}
	}
	if t.Random == 0 {
		// From row 1 eastward into column 3 northward at corner (1, 3): a left turn.
		return []relation{restrict(wayAt(1, 2, true), wayAt(1, 3, false), t.node(1, 3), "no_left_turn", "Mo-Fr 07:00-09:00")}
	}
	var out []relation
	n := len(blocks) * t.Random / 100
	for range n {
		r, c := 1+rng.IntN(t.H-2), 1+rng.IntN(t.W-2)
		kind := []string{"no_left_turn", "no_straight_on", "only_right_turn"}[rng.IntN(3)]
		from := wayAt(r, c-1, true)
		to := []int64{wayAt(r, c, true), wayAt(r, c, false), wayAt(r-1, c, false)}[rng.IntN(3)]
		out = append(out, restrict(from, to, t.node(r, c), kind, townSchedules[rng.IntN(len(townSchedules))]))
	}
	return out
}

// viaWayRestrictions returns t.ViaWays random restrictions from a block of
// a row eastward along one or two more blocks of it onto a block leaving
// the last corner, half of them conditional.
func (t TimedTown) viaWayRestrictions(blocks []block) []relation {
	rng := rand.New(rand.NewPCG(t.Seed, 11))
	wayAt := func(r, c int, horizontal bool) int64 {
		for i, b := range blocks {
			if b.row == r && b.col == c && b.horizontal == horizontal {
				return int64(i + 1)
			}
		}
		return 0
	}
	var out []relation
	for range t.ViaWays {
		n := 1 + rng.IntN(2) // via blocks
		r, c := 1+rng.IntN(t.H-2), 1+rng.IntN(t.W-2-n)
		members := []synth.Member{{Type: "w", ID: wayAt(r, c-1, true), Role: "from"}}
		for k := range n {
			members = append(members, synth.Member{Type: "w", ID: wayAt(r, c+k, true), Role: "via"})
		}
		end := c + n // the last corner's column
		to := []int64{wayAt(r, end, true), wayAt(r, end, false), wayAt(r-1, end, false)}[rng.IntN(3)]
		members = append(members, synth.Member{Type: "w", ID: to, Role: "to"})
		kind := []string{"no_left_turn", "no_straight_on", "only_right_turn"}[rng.IntN(3)]
		tags := []synth.Tag{{Key: "restriction", Value: kind}, {Key: "type", Value: "restriction"}}
		if rng.IntN(2) == 0 {
			when := townSchedules[rng.IntN(len(townSchedules))]
			tags = []synth.Tag{{Key: "restriction:conditional", Value: kind + " @ (" + when + ")"}, {Key: "type", Value: "restriction"}}
		}
		out = append(out, relation{members: members, tags: tags})
	}
	return out
}

func sortedTags(m map[string]string) []synth.Tag {
	var out []synth.Tag
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, synth.Tag{Key: k, Value: m[k]})
	}
	return out
}

// Open writes the town, compiles it with mapc (all profiles, time zone
// Europe/Andorra) into a temporary directory and opens the release for the
// test.
func (t TimedTown) Open(tb testing.TB) *serving.Release {
	tb.Helper()
	return openFixture(tb, "town", t.WritePBF, "--timezone", "Europe/Andorra")
}
