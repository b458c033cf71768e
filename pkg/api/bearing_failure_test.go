package api

import (
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/serving"
)

// TestLegFailureNamesTheBearing: a bearing lets the route leave a waypoint
// one way only, and in Monaco a car leaving (7.42854, 43.74500) heading 230
// finds no path to (7.41147, 43.74706) though one exists without the
// bearing (found by TestBearingsMetByTheRoute's uniform requests). The 422
// says which bearing no path meets (issue 36 item 2), leaving or reaching,
// and the same request without it is answered.
func TestLegFailureNamesTheBearing(t *testing.T) {
	rel := compiletest.Extract(t, "monaco.osm.pbf")
	s, err := New(Config{Releases: serving.NewHolder(rel)})
	if err != nil {
		t.Fatal(err)
	}
	const coords = `"coordinates":[[7.409257021776038,43.744201954699776],[7.428542236613741,43.74499734731287],[7.411474036195502,43.7470581510429]]`
	post := func(body string) *fasthttp.RequestCtx {
		var ctx fasthttp.RequestCtx
		ctx.Request.Header.SetMethod("POST")
		ctx.Request.SetRequestURI("/v1/directions")
		ctx.Request.Header.SetContentType("application/json")
		ctx.Request.SetBody([]byte(body))
		s.Handle(&ctx)
		return &ctx
	}
	bound := post(`{"profile":"car",` + coords + `,"bearings":[[111,30],[230,30],null]}`)
	if got := bound.Response.StatusCode(); got != 422 {
		t.Fatalf("with the bearing: status %d, want 422: %s", got, bound.Response.Body())
	}
	if want := "no car route from waypoint 1 to waypoint 2 leaving waypoint 1 heading 230±30°: there is one leaving it the other way"; !strings.Contains(string(bound.Response.Body()), want) {
		t.Errorf("the 422 does not say %q: %s", want, bound.Response.Body())
	}
	// A truck reaching (7.41182, 43.72970) heading 168 finds no path from
	// (7.41587, 43.73616), whose own bearing is met by some.
	truck := post(`{"profile":"truck","coordinates":[[7.423857564524101,43.73074479816206],[7.41587136790045,43.736157466786416],` +
		`[7.4118155356825435,43.729700300751844]],"bearings":[[141,30],[348,30],[168,30]]}`)
	if want := "no truck route from waypoint 1 to waypoint 2 reaching waypoint 2 heading 168±30°: there is one reaching it the other way"; truck.Response.StatusCode() != 422 || !strings.Contains(string(truck.Response.Body()), want) {
		t.Errorf("truck: status %d, want 422 saying %q: %s", truck.Response.StatusCode(), want, truck.Response.Body())
	}
	free := post(`{"profile":"car",` + coords + `,"bearings":[[111,30],null,null]}`)
	if got := free.Response.StatusCode(); got != 200 {
		t.Errorf("without waypoint 1's bearing: status %d, want 200: %s", got, free.Response.Body())
	}
}
