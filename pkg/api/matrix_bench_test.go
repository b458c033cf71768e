package api

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/internal/benchcpu"
)

// matrixBody returns a car matrix request from n random car-road points
// to n others.
func (d *directionsBench) matrixBody(n int) []byte {
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
	return fmt.Appendf(nil, `{"sources":%s,"targets":%s}`, points(), points())
}

// BenchmarkMatrixHandler measures one unmetered car matrix request through
// the whole handler (decode, snap, many-to-many, JSON) on Andorra.
//
//	go test -run X -bench MatrixHandler -count 6 ./pkg/api
func BenchmarkMatrixHandler(b *testing.B) {
	d := newDirectionsBench(b)
	for _, n := range []int{10, 100} {
		body := d.matrixBody(n)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			var ctx fasthttp.RequestCtx
			defer benchcpu.Report(b)()
			for b.Loop() {
				d.handle(b, &ctx, "/v1/matrix", body)
			}
		})
	}
}
