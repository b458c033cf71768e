package api

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/polyline"
	"github.com/mapsco/maps/pkg/route"
)

// TestEscapeBackslashes checks the one-pass escaping against the obvious
// replacement, on random polyline-alphabet strings after a prefix it must
// leave alone (a backslash there included).
func TestEscapeBackslashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		prefix := []byte(`{"a":"\\",`)
		s := make([]byte, rng.IntN(200))
		for j := range s {
			s[j] = byte(63 + rng.IntN(64)) // 63..126, the polyline alphabet
		}
		want := append(bytes.Clone(prefix), bytes.ReplaceAll(s, []byte(`\`), []byte(`\\`))...)
		got := escapeBackslashes(append(bytes.Clone(prefix), s...), len(prefix))
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: escape of %q gave %q, want %q", i, s, got, want)
		}
	}
}

// TestDirectionsGeometryIsTheShape decodes the polyline6 of Andorra
// directions and compares it with the route's Shape, point by point, to the
// format's precision: the geometry is encoded as the route is walked, and
// must say what Shape says.
func TestDirectionsGeometryIsTheShape(t *testing.T) {
	d := newDirectionsBench(t)
	router := d.rel.Routers["car"]
	var ctx fasthttp.RequestCtx
	for i, body := range d.bodies(0)[:40] {
		d.handle(t, &ctx, "/v1/directions", body)
		var req struct{ Coordinates []route.Point }
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		rt, err := router.Route(context.Background(), req.Coordinates, router.StateAt(time.Time{}))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		shape := rt.Shape()
		want := bytes.ReplaceAll(polyline.Append(nil, shape, 6), []byte(`\`), []byte(`\\`))
		if answer := ctx.Response.Body(); !bytes.Contains(answer, append(append([]byte(`"geometry":"`), want...), '"')) {
			t.Fatalf("case %d: the answer's geometry is not the route's Shape encoded (%d points)\n%s", i, len(shape), answer)
		}
		if len(shape) < 2 || len(shape) > rt.MaxPoints() {
			t.Fatalf("case %d: Shape has %d points, MaxPoints says at most %d", i, len(shape), rt.MaxPoints())
		}
	}
}
