package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/profile"
)

// The checks of issue 36 item 8 (items 1-3 of the issue, asked of both engines on the same uniform points):
// uturns (where routes turn back), bearings (ends heading as asked, no turn-around at a waypoint) and
// alternatives (one asked against two asked). Each writes a JSON line per finding to out and a summary per
// engine and profile to the tally.

func runDrivable(ctx context.Context, check string, ix *index, profileDir, mapd, osrmFor, profiles string, n int, seed uint64) error {
	d := &drivable{ix: ix, mapd: mapd, osrm: map[string]string{}, ours: map[string]*profile.Profile{}, profiles: strings.Split(profiles, ","),
		n: n, seed: seed, out: json.NewEncoder(os.Stdout), tally: &tally{}}
	ps, err := profile.LoadDir(profileDir)
	if err != nil {
		return err
	}
	for _, p := range ps {
		d.ours[p.Name] = p
	}
	for _, kv := range strings.Split(osrmFor, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			d.osrm[k] = v
		}
	}
	run := map[string]func(context.Context) error{"uturns": d.checkUTurns, "bearings": d.checkBearings, "alternatives": d.checkAlternatives}[check]
	if run == nil {
		return fmt.Errorf("-check %q: want agree, uturns, bearings or alternatives", check)
	}
	err = run(ctx)
	d.tally.print(os.Stderr)
	return err
}

// drivable is what the three checks share: the index, the engines per profile, the draw and the output.
type drivable struct {
	ix       *index
	mapd     string
	osrm     map[string]string // our profile -> osrm-routed prepared with the matching .lua profile
	ours     map[string]*profile.Profile
	profiles []string
	n        int
	seed     uint64
	out      *json.Encoder
	tally    *tally
}

// model is the travel model a route of engine e for profile p is read with.
func (d *drivable) model(e engine) travelModel {
	if e.name == "osrm" && e.profile == "car" {
		return osrmCarModel
	}
	return ourModel(d.ours[e.profile])
}

func (d *drivable) engines(profile string) []engine {
	es := []engine{{"mapd", profile, d.mapd}}
	if u, ok := d.osrm[profile]; ok {
		es = append(es, engine{"osrm", profile, u})
	}
	return es
}

// rng draws the same points for every profile and engine: a profile's requests are the same pairs.
func (d *drivable) rng() *rand.Rand { return rand.New(rand.NewPCG(d.seed, 36)) }

func (d *drivable) point(r *rand.Rand) [2]float64 {
	b := d.ix.bbox
	return [2]float64{b[0] + r.Float64()*(b[2]-b[0]), b[1] + r.Float64()*(b[3]-b[1])}
}

type finding struct {
	Check   string       `json:"check"`
	Engine  string       `json:"engine"`
	Profile string       `json:"profile"`
	Points  [][2]float64 `json:"points"`
	Bearing []*[2]int    `json:"bearings,omitempty"`
	What    string       `json:"what"`
	U       *uTurn       `json:"u_turn,omitempty"`
	Detail  string       `json:"detail,omitempty"`
}

// checkUTurns routes d.n uniform pairs per profile (no alternatives) and places every U-turn.
func (d *drivable) checkUTurns(ctx context.Context) error {
	for _, p := range d.profiles {
		r := d.rng()
		for range d.n {
			pts := [][2]float64{d.point(r), d.point(r)}
			for _, e := range d.engines(p) {
				a, err := e.ask(ctx, request{Points: pts})
				if err != nil {
					return err
				}
				row := d.tally.row(e.name, p)
				row.add("pairs", 1)
				if len(a.Routes) == 0 {
					continue
				}
				row.add("routed", 1)
				inRoad := false
				for _, u := range d.ix.uTurnsOf(a.Routes[0].Points, d.model(e)) {
					row.add(u.Place, 1)
					inRoad = inRoad || u.Place == inTheRoad || u.Place == onBridge
					if err := d.out.Encode(finding{Check: "uturns", Engine: e.name, Profile: p, Points: pts, What: u.Place, U: &u}); err != nil {
						return err
					}
				}
				if inRoad {
					row.add("routes turning back in the road or onto a bridge/tunnel", 1)
				}
			}
		}
	}
	return nil
}

// bearingTolerance is the tolerance every drawn bearing carries (the 30 degrees); an end counts as
// outside when it misses by more than bearingSlack over it (polyline6 rounds positions to 0.1 m).
const (
	bearingTolerance = 30
	bearingSlack     = 1.0
)

// checkBearings asks d.n uniform pairs per profile with a random bearing at both ends.
func (d *drivable) checkBearings(ctx context.Context) error {
	for _, p := range d.profiles {
		r := d.rng()
		for range d.n {
			pts := [][2]float64{d.point(r), d.point(r)}
			bs := []*[2]int{{r.IntN(360), bearingTolerance}, {r.IntN(360), bearingTolerance}}
			for _, e := range d.engines(p) {
				a, err := e.ask(ctx, request{Points: pts, Bearings: bs})
				if err != nil {
					return err
				}
				row := d.tally.row(e.name, p)
				row.add("requests", 1)
				if len(a.Routes) == 0 {
					row.add("refused", 1)
					continue
				}
				row.add("routed", 1)
				if err := d.bearingEnds(row, e, p, pts, bs, a.Routes[0]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (d *drivable) bearingEnds(row *tallyRow, e engine, p string, pts [][2]float64, bs []*[2]int, rt route) error {
	emit := func(what, detail string, u *uTurn) error {
		return d.out.Encode(finding{Check: "bearings", Engine: e.name, Profile: p, Points: pts, Bearing: bs, What: what, U: u, Detail: detail})
	}
	leave, reach, ok := d.ix.endHeadings(rt.Points)
	if !ok {
		row.add("too short to read a heading", 1)
		return nil
	}
	for i, h := range []float64{leave, reach} {
		if off := angleDiff(h, float64(bs[i][0])); off > bearingTolerance+bearingSlack {
			row.add("ends outside the tolerance", 1)
			end, at := rt.Points[0], ""
			if i == 1 {
				end = rt.Points[len(rt.Points)-1]
			}
			// An end placed on a node: the engine matched the bearing with a segment ending there and the
			// route went on by another.
			if id, ok := d.ix.byPos[key6(end[0], end[1])]; ok {
				row.add("of them placed on an OSM node", 1)
				at = fmt.Sprintf(", placed on node %d", id)
			}
			if err := emit("end outside the tolerance", fmt.Sprintf("waypoint %d: asked %d, route %.0f%s", i, bs[i][0], h, at), nil); err != nil {
				return err
			}
		}
	}
	for _, u := range d.ix.uTurnsOf(rt.Points, d.model(e)) {
		row.add("U-turn "+u.Place, 1)
		if err := emit("U-turn", "", &u); err != nil {
			return err
		}
	}
	return nil
}

// checkAlternatives asks d.n uniform pairs per profile for one alternative and for two.
func (d *drivable) checkAlternatives(ctx context.Context) error {
	for _, p := range d.profiles {
		r := d.rng()
		for range d.n {
			pts := [][2]float64{d.point(r), d.point(r)}
			for _, e := range d.engines(p) {
				one, err := e.ask(ctx, request{Points: pts, Alternatives: 1})
				if err != nil {
					return err
				}
				two, err := e.ask(ctx, request{Points: pts, Alternatives: 2})
				if err != nil {
					return err
				}
				row := d.tally.row(e.name, p)
				row.add("pairs", 1)
				if len(one.Routes) == 0 {
					continue
				}
				row.add("routed", 1)
				n1, n2 := len(one.Routes)-1, max(len(two.Routes)-1, 0)
				if n1 > 0 {
					row.add("an alternative asking for 1", 1)
				}
				if n2 > 0 {
					row.add("an alternative asking for 2", 1)
				}
				if n2 > 1 {
					row.add("two alternatives asking for 2", 1)
				}
				what := ""
				switch {
				case n2 > 0 && n1 == 0:
					what = "none asking for 1, one asking for 2"
				case n1 > 0 && n2 == 0:
					what = "one asking for 1, none asking for 2"
				case n1 > 0 && !slices.Equal(one.Routes[1].Points, two.Routes[1].Points):
					what = "asking for 1 is not the first of 2"
				}
				if what != "" {
					row.add(what, 1)
					if err := d.out.Encode(finding{Check: "alternatives", Engine: e.name, Profile: p, Points: pts, What: what}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// tally counts per engine and profile, in the order rows and counters first appear.
type tally struct {
	rows []*tallyRow
}

type tallyRow struct {
	engine, profile string
	keys            []string
	counts          map[string]int
}

func (t *tally) row(engine, profile string) *tallyRow {
	for _, r := range t.rows {
		if r.engine == engine && r.profile == profile {
			return r
		}
	}
	r := &tallyRow{engine: engine, profile: profile, counts: map[string]int{}}
	t.rows = append(t.rows, r)
	return r
}

func (r *tallyRow) add(key string, n int) {
	if _, ok := r.counts[key]; !ok {
		r.keys = append(r.keys, key)
	}
	r.counts[key] += n
}

func (t *tally) print(w io.Writer) {
	for _, r := range t.rows {
		parts := make([]string, len(r.keys))
		for i, k := range r.keys {
			parts[i] = fmt.Sprintf("%s %d", k, r.counts[k])
		}
		fmt.Fprintf(w, "%-4s %-17s %s\n", r.engine, r.profile, strings.Join(parts, "; "))
	}
}
