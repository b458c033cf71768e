package compiletest

import (
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/synth"
)

// Crossover is a synthetic dual carriageway for via-way restrictions: two
// one-way primary carriageways 20 m apart and 2 km long, the northern one
// westbound and the southern one eastbound, joined at both ends by one-way
// links (west: north to south, east: south to north) and in the middle by
// a 20 m crossover way, one-way southward (way CrossoverWay, from corner
// North(Mid) to South(Mid); one-way, so that a car cannot undo the
// restriction by turning back on the crossover twice). Each carriageway is
// two ways, split at the crossover. A one-way side road leaves South(Mid)
// southward and, 100 m south, turns west to come back to South(0) a
// kilometre later, so that the crossover leads somewhere besides the U-turn
// (and lies in the largest component, where points snap), but by a longer
// way than going round by the west link.
//
// Unless Unrestricted, a no_u_turn relation from the northern carriageway's
// eastern way via the crossover to the southern carriageway's eastern way
// forbids the U-turn through the crossover, for every vehicle.
type Crossover struct {
	Unrestricted bool
}

// Way ids of the fixture.
const (
	CrossoverNorthEast = 1 // northern carriageway, North(Last) → North(Mid), westbound
	CrossoverNorthWest = 2 // North(Mid) → North(0)
	CrossoverSouthWest = 3 // South(0) → South(Mid), eastbound
	CrossoverSouthEast = 4 // South(Mid) → South(Last)
	CrossoverWay       = 5 // North(Mid) → South(Mid)
	CrossoverSide      = 8 // South(Mid) → 100 m south, one-way
)

// Corners of each carriageway: 0 (west) to CrossoverLast (east), 100 m
// apart, the crossover at CrossoverMid.
const (
	CrossoverMid  = 10
	CrossoverLast = 20
)

const (
	crossLon, crossLat = 1.52, 42.51
	crossStepLon       = 0.00122 // about 100 m
	crossGapLat        = 0.00018 // about 20 m
)

// North returns corner i of the northern carriageway.
func (Crossover) North(i float64) route.Point {
	return route.Point{crossLon + i*crossStepLon, crossLat + crossGapLat}
}

// South returns corner i of the southern carriageway.
func (Crossover) South(i float64) route.Point {
	return route.Point{crossLon + i*crossStepLon, crossLat}
}

func crossNorth(i int) int64 { return int64(1 + i) }
func crossSouth(i int) int64 { return int64(101 + i) }

// Nodes of the side road: its corner south of South(Mid), and south of South(0).
const (
	crossSideMid  = 200
	crossSideWest = 201
)

// WritePBF writes the fixture as an OSM PBF at path.
func (c Crossover) WritePBF(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fixed := func(d float64) int32 { return int32(d * 1e7) }
	ne := c.North(CrossoverLast)
	w, err := synth.NewPBFWriter(f, [4]int32{fixed(crossLon), fixed(crossLat - 0.001), fixed(ne[0]), fixed(ne[1])}, "compiletest")
	if err != nil {
		return err
	}
	for _, side := range []struct {
		id func(int) int64
		at func(float64) route.Point
	}{{crossNorth, c.North}, {crossSouth, c.South}} {
		for i := 0; i <= CrossoverLast; i++ {
			p := side.at(float64(i))
			if err := w.Node(side.id(i), fixed(p[0]), fixed(p[1]), nil); err != nil {
				return err
			}
		}
	}
	for _, n := range []struct {
		id int64
		at route.Point
	}{{crossSideMid, c.South(CrossoverMid)}, {crossSideWest, c.South(0)}} {
		if err := w.Node(n.id, fixed(n.at[0]), fixed(n.at[1]-0.0009), nil); err != nil {
			return err
		}
	}
	for _, way := range c.ways() {
		if err := w.Way(way.id, way.nodes, way.tags); err != nil {
			return err
		}
	}
	if !c.Unrestricted {
		members := []synth.Member{{Type: "w", ID: CrossoverNorthEast, Role: "from"}, {Type: "w", ID: CrossoverWay, Role: "via"},
			{Type: "w", ID: CrossoverSouthEast, Role: "to"}}
		if err := w.Relation(1, members, []synth.Tag{{Key: "restriction", Value: "no_u_turn"}, {Key: "type", Value: "restriction"}}); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

type crossWay struct {
	id    int64
	nodes []int64
	tags  []synth.Tag
}

func (Crossover) ways() []crossWay {
	run := func(from, to int, node func(int) int64) []int64 {
		var out []int64
		for i := from; ; {
			out = append(out, node(i))
			if i == to {
				return out
			}
			if from < to {
				i++
			} else {
				i--
			}
		}
	}
	oneway := func(name string) []synth.Tag {
		return []synth.Tag{{Key: "highway", Value: "primary"}, {Key: "name", Value: name}, {Key: "oneway", Value: "yes"}}
	}
	return []crossWay{
		{CrossoverNorthEast, run(CrossoverLast, CrossoverMid, crossNorth), oneway("Avinguda Nord")},
		{CrossoverNorthWest, run(CrossoverMid, 0, crossNorth), oneway("Avinguda Nord")},
		{CrossoverSouthWest, run(0, CrossoverMid, crossSouth), oneway("Avinguda Sud")},
		{CrossoverSouthEast, run(CrossoverMid, CrossoverLast, crossSouth), oneway("Avinguda Sud")},
		{CrossoverWay, []int64{crossNorth(CrossoverMid), crossSouth(CrossoverMid)}, []synth.Tag{{Key: "highway", Value: "tertiary"}, {Key: "oneway", Value: "yes"}}},
		{6, []int64{crossNorth(0), crossSouth(0)}, oneway("Pont Oest")},
		{7, []int64{crossSouth(CrossoverLast), crossNorth(CrossoverLast)}, oneway("Pont Est")},
		{CrossoverSide, []int64{crossSouth(CrossoverMid), crossSideMid}, []synth.Tag{{Key: "highway", Value: "residential"}, {Key: "oneway", Value: "yes"}}},
		{9, []int64{crossSideMid, crossSideWest, crossSouth(0)}, []synth.Tag{{Key: "highway", Value: "residential"}, {Key: "oneway", Value: "yes"}}},
	}
}

// Open writes the fixture, compiles it with mapc (all profiles) into a
// temporary directory and opens the release for the test.
func (c Crossover) Open(tb testing.TB) *serving.Release {
	tb.Helper()
	return openFixture(tb, "crossover", c.WritePBF)
}
