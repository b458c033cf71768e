package api

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/serving"
)

// matrixBody returns a car matrix request from n random car-road points
// to n others, or to the same n when same is set (OSRM's usual table, all
// its coordinates to all: its diagonal is from each point to itself).
func (d *directionsBench) matrixBody(n int, same bool) []byte {
	g := d.rel.Routers["car"].Graph()
	rng := rand.New(rand.NewPCG(7, 8))
	points := func() []byte {
		out := []byte{'['}
		for k := 0; k < n; {
			seg := uint32(rng.IntN(g.Net.NumSegments()))
			if g.Big[seg] != 1 {
				continue
			}
			if k > 0 {
				out = append(out, ',')
			}
			lon, lat := g.Net.Point(g.Net.SegGeom[seg])
			out = fmt.Appendf(out, "[%.6f,%.6f]", lon, lat)
			k++
		}
		return append(out, ']')
	}
	sources := points()
	targets := sources
	if !same {
		targets = points()
	}
	return fmt.Appendf(nil, `{"sources":%s,"targets":%s}`, sources, targets)
}

// BenchmarkMatrixHandler measures one unmetered car matrix request through
// the whole handler (decode, snap, many-to-many, JSON) on Andorra.
//
//	go test -run X -bench MatrixHandler -count 6 ./pkg/api
func BenchmarkMatrixHandler(b *testing.B) {
	d := newDirectionsBench(b)
	for _, n := range []int{10, 100} {
		body := d.matrixBody(n, false)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			var ctx fasthttp.RequestCtx
			defer benchcpu.Report(b)()
			for b.Loop() {
				d.handle(b, &ctx, "/v1/matrix", body)
			}
		})
	}
}

// BenchmarkSynthMatrixHandler is BenchmarkMatrixHandler's 100×100 car table
// on the ~3M-node synthetic country (MAPS_SYNTH_RELEASE, as
// BenchmarkSynthDirectionsHandler): the handler's share of the table's
// price over HTTP. "same" asks from 100 points to the same 100, whose
// diagonal is each point to itself.
//
//	MAPS_SYNTH_RELEASE=/work/s3m/releases/s3m go test -run X -bench SynthMatrixHandler -count 6 ./pkg/api
func BenchmarkSynthMatrixHandler(b *testing.B) {
	rel := compiletest.OpenSynth(b)
	s, err := New(Config{Releases: serving.NewHolder(rel)})
	if err != nil {
		b.Fatal(err)
	}
	d := &directionsBench{rel: rel, s: s}
	for _, same := range []bool{false, true} {
		body := d.matrixBody(100, same)
		b.Run(map[bool]string{false: "distinct", true: "same"}[same], func(b *testing.B) {
			var ctx fasthttp.RequestCtx
			d.handle(b, &ctx, "/v1/matrix", body) // the first table faults the mapping in
			defer benchcpu.Report(b)()
			for b.Loop() {
				d.handle(b, &ctx, "/v1/matrix", body)
			}
		})
	}
}
