package api

import (
	"encoding/json"
	"testing"

	"github.com/valyala/fasthttp"
)

// TestUnplacedWaypointsAllNamed: a 422 names every waypoint that could not
// be placed, each at its own pointer with its own reason (issue 36: only the
// first was named).
func TestUnplacedWaypointsAllNamed(t *testing.T) {
	d := newDirectionsBench(t)
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.SetMethod("POST")
	ctx.Request.SetRequestURI("/v1/directions")
	ctx.Request.Header.SetContentType("application/json")
	// 0 and 3 lie far outside Andorra's coverage (at sea, in Paris); 1 and 2 are roads.
	ctx.Request.SetBody([]byte(`{"coordinates":[[3.5,41.0],[1.5218,42.5063],[1.7333,42.5425],[2.35,48.85]]}`))
	d.s.Handle(&ctx)
	if ctx.Response.StatusCode() != 422 {
		t.Fatalf("status %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
	}
	var p struct {
		Detail string `json:"detail"`
		Errors []struct {
			Field   string `json:"field"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(ctx.Response.Body(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Detail != "waypoints 0 and 3 are not near a road the car profile may use" || len(p.Errors) != 2 ||
		p.Errors[0].Field != "/coordinates/0" || p.Errors[1].Field != "/coordinates/3" {
		t.Errorf("problem %+v", p)
	}
}
