package isochrone

import (
	"context"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/route"
)

// BenchmarkCar60 is the figure: a 4-contour car isochrone up to 60
// minutes from Andorra la Vella, the whole pipeline after snapping.
func BenchmarkCar60(b *testing.B) {
	rel := openAndorra(b)
	r := rel.Routers["car"]
	sn, err := r.Snap([]route.Point{{1.5218, 42.5063}})
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Budgets: []Budget{{15, Minutes}, {30, Minutes}, {45, Minutes}, {60, Minutes}}}
	var e Engine
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Compute(context.Background(), r.Graph(), sn[0], req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch is the search step alone (60-minute car budget from
// Andorra la Vella), to compare with the polygon construction.
func BenchmarkSearch(b *testing.B) {
	rel := openAndorra(b)
	r := rel.Routers["car"]
	sn, err := r.Snap([]route.Point{{1.5218, 42.5063}})
	if err != nil {
		b.Fatal(err)
	}
	sc := new(scratch)
	b.ReportAllocs()
	for b.Loop() {
		sc.search(r.Graph(), sn[0], byTime, 3600_000, time.Time{})
	}
	b.ReportMetric(float64(len(sc.touched)), "arcs")
}
