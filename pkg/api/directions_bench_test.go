package api

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/release"
)

// BenchmarkDirectionsHandler measures one unmetered directions request
// through the whole handler (decode, snap, search, unpack, elevation,
// JSON) on Andorra, for random car-road pairs.
func BenchmarkDirectionsHandler(b *testing.B) {
	rel, err := release.Open(compiletest.Andorra(b))
	if err != nil {
		b.Fatal(err)
	}
	defer rel.Close()
	s, err := New(Config{Releases: release.NewHolder(rel)})
	if err != nil {
		b.Fatal(err)
	}
	g := rel.Routers["car"].Graph()
	rng := rand.New(rand.NewPCG(1, 2))
	point := func() string {
		for {
			seg := uint32(rng.IntN(g.Net.NumSegments()))
			if g.Big[seg] == 1 {
				lon, lat := g.Net.Point(g.Net.SegGeom[seg])
				return fmt.Sprintf("[%.6f,%.6f]", lon, lat)
			}
		}
	}
	bodies := make([][]byte, 256)
	for i := range bodies {
		bodies[i] = []byte(`{"coordinates":[` + point() + `,` + point() + `]}`)
	}
	var ctx fasthttp.RequestCtx
	i := 0
	for b.Loop() {
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.Header.SetMethod("POST")
		ctx.Request.SetRequestURI("/v1/directions")
		ctx.Request.Header.SetContentType("application/json")
		ctx.Request.SetBody(bodies[i%len(bodies)])
		i++
		s.Handle(&ctx)
		if ctx.Response.StatusCode() != 200 {
			b.Fatalf("status %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
}
