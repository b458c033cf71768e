// Command opsgen writes the road operations issue 42's speed targets are
// measured under, for a release, as the GeoJSON FeatureCollection that
// `mapd operations import` reads: by default 100 closures (both directions)
// and 1,000 slowdowns (one direction, travel time ×1.2 to ×3), half of them
// on the fastest car routes between random road points (the trunks long
// trips share, which long shortcuts span) and half on car roads drawn
// uniformly (mostly side streets).
//
//	go run ./scripts/opsgen -release /work/s3m/rel -o /tmp/ops.geojson
//	mapd operations import /tmp/ops.geojson --ledger L --by bench   # drafts; review each to apply it
//
// The roads are exactly those of the in-process benchmarks
// (compiletest.Operations, the same seed, so BenchmarkSynthLegOperations
// and an HTTP measurement under this file see the same operations): each is
// one segment, the road between two junctions, written as an operation on
// its OSM way restricted to that segment (from and to are points inside the
// segment's shape, a third and two thirds along it), in the arc's direction
// of travel for a slowdown. A slowdown's factor is the in-process extra time
// over the arc's time, so the resolved extra time is the same to the
// millisecond. The file is the same on every run for a release.
//
// Every operation is checked to name a way the release knows; one that does
// not (a segment without a way id) is counted on stderr and left out.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

func main() {
	dir := flag.String("release", "", "release directory (graph.map, manifest.json) with a car profile (required)")
	out := flag.String("o", "-", "output file, - for stdout")
	closures := flag.Int("closures", 100, "closures (both directions of one road between junctions)")
	slowdowns := flag.Int("slowdowns", 1000, "slowdowns (one direction, ×1.2 to ×3)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "opsgen: -release is required")
		os.Exit(2)
	}
	if err := run(*dir, *out, *closures, *slowdowns); err != nil {
		fmt.Fprintln(os.Stderr, "opsgen:", err)
		os.Exit(1)
	}
}

func run(dir, out string, closures, slowdowns int) error {
	rel, err := serving.Open(dir)
	if err != nil {
		return fmt.Errorf("open release %s: %w", dir, err)
	}
	defer rel.Close()
	r := rel.Routers["car"]
	if r == nil {
		return fmt.Errorf("release %s has no car profile", dir)
	}
	if !rel.Network.HasWays() {
		return fmt.Errorf("release %s keeps no way ids (compiled before net.seg_way): operations by way cannot resolve on it", dir)
	}
	ops, skipped := toRoadops(r.Graph(), compiletest.Operations(r, closures, slowdowns), closures)
	if skipped > 0 {
		fmt.Fprintf(os.Stderr, "opsgen: %d operations left out: their segment has no way id\n", skipped)
	}
	raw, err := encode(ops)
	if err != nil {
		return fmt.Errorf("encode operations: %w", err)
	}
	if out == "-" {
		_, err = os.Stdout.Write(raw)
	} else {
		err = os.WriteFile(out, raw, 0o644)
	}
	if err != nil {
		return fmt.Errorf("write operations: %w", err)
	}
	fmt.Fprintf(os.Stderr, "opsgen: %d operations (%d closures, %d slowdowns)\n", len(ops), min(closures, len(ops)), len(ops)-min(closures, len(ops)))
	return nil
}

// feature is one operation as an import reads it: a way operation, so no
// geometry. roadops.EncodeFeatureCollection would do, but it also writes the
// store's members (id, state, times), empty here and ignored by an import.
type feature struct {
	Type       string       `json:"type"`
	Geometry   *struct{}    `json:"geometry"`
	Properties featureProps `json:"properties"`
}

type featureProps struct {
	Kind      roadops.Kind      `json:"kind"`
	Way       int64             `json:"way"`
	From      *[2]float64       `json:"from"`
	To        *[2]float64       `json:"to"`
	Direction roadops.Direction `json:"direction"`
	Factor    float64           `json:"factor,omitempty"`
	Profiles  []string          `json:"profiles"`
	Reason    string            `json:"reason"`
	Reference string            `json:"reference"`
}

// encode writes ops as a FeatureCollection, one feature a line.
func encode(ops []roadops.Operation) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"FeatureCollection","features":[`)
	for i, o := range ops {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		raw, err := json.Marshal(feature{Type: "Feature", Properties: featureProps{Kind: o.Kind, Way: o.Way,
			From: o.From, To: o.To, Direction: o.Direction, Factor: o.Factor, Profiles: o.Profiles,
			Reason: o.Reason, Reference: o.Reference}})
		if err != nil {
			return nil, err
		}
		b.Write(raw)
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// toRoadops turns the arc-level operations (the first closures of them
// closures, the rest slowdowns) into operations on the part of a way; it
// returns how many it left out.
func toRoadops(g *graph.Graph, arcOps []route.Operation, closures int) (ops []roadops.Operation, skipped int) {
	net := g.Net
	for i, op := range arcOps {
		arc := op.Changes[0].Arc
		s, reversed := g.ArcSegment(arc)
		way := net.SegWay[s]
		if way == 0 {
			skipped++
			continue
		}
		from, to := inside(net, s)
		o := roadops.Operation{Way: way, From: &from, To: &to, Profiles: []string{"car"},
			Reference: fmt.Sprintf("opsgen %d", i)}
		if i < closures {
			o.Kind, o.Direction, o.Reason = roadops.KindClosure, roadops.DirBoth, "benchmark closure"
		} else {
			o.Kind, o.Direction, o.Reason = roadops.KindSlowdown, roadops.DirForward, "benchmark slowdown"
			if reversed {
				o.Direction = roadops.DirBackward
			}
			o.Factor = factor(g.ArcTime(arc), op.Changes[0].Extra)
		}
		if err := o.Validate(); err != nil {
			panic(fmt.Sprintf("opsgen: operation %d is invalid: %v", i, err)) // a bug here, not in the input
		}
		ops = append(ops, o)
	}
	return ops, skipped
}

// factor is the slowdown factor that adds extra ms to an arc of t ms
// (resolve rounds t × (factor − 1) back to extra). An arc of no time gains
// nothing from any factor: the smallest of the range then.
func factor(t, extra uint32) float64 {
	if t == 0 || extra == 0 {
		return 1.2
	}
	return 1 + float64(extra)/float64(t)
}

// inside returns two points of segment s's shape, a third and two thirds
// along it: nearer to s than to any other segment of its way, so that an
// operation on the way's part between them covers exactly s (resolve
// takes the segments nearest the part's ends).
func inside(net *graph.Network, s uint32) (a, b [2]float64) {
	begin, end := net.Points(s)
	var pts [][2]float64
	for i := begin; i < end; i++ {
		x, y := net.Point(i)
		pts = append(pts, [2]float64{x, y})
	}
	k := geo.LonScale(pts[0][1])
	dist := func(p, q [2]float64) float64 { return math.Hypot((q[0]-p[0])*k, q[1]-p[1]) }
	total := 0.0
	for i := 1; i < len(pts); i++ {
		total += dist(pts[i-1], pts[i])
	}
	at := func(f float64) [2]float64 {
		left := f * total
		for i := 1; i < len(pts); i++ {
			d := dist(pts[i-1], pts[i])
			if d > 0 && left <= d {
				t := left / d
				return [2]float64{pts[i-1][0] + t*(pts[i][0]-pts[i-1][0]), pts[i-1][1] + t*(pts[i][1]-pts[i-1][1])}
			}
			left -= d
		}
		return pts[len(pts)-1]
	}
	return at(1.0 / 3), at(2.0 / 3)
}
