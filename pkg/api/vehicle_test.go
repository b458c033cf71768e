package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// TestVehicleOverHTTP (issue 35): the truck's vehicle end to end on Andorra. From Grau Roig to Pas de la Casa
// the truck goes through the Envalira tunnel (height restrictors posted 4.30 m) with no vehicle and with the
// profile's own stated; a 4.4 m truck goes over the pass, in directions and in the matrix, and reaches less in
// ten minutes; a vehicle on the car is a 400 at /vehicle.
func TestVehicleOverHTTP(t *testing.T) {
	s, err := New(Config{Releases: serving.NewHolder(compiletest.OpenAndorra(t))})
	if err != nil {
		t.Fatal(err)
	}
	post := func(path, body string, status int) []byte {
		t.Helper()
		var ctx fasthttp.RequestCtx
		ctx.Request.Header.SetMethod("POST")
		ctx.Request.SetRequestURI(path)
		ctx.Request.Header.SetContentType("application/json")
		ctx.Request.SetBody([]byte(body))
		s.Handle(&ctx)
		if got := ctx.Response.StatusCode(); got != status {
			t.Fatalf("%s %s: status %d, want %d: %s", path, body, got, status, ctx.Response.Body())
		}
		return append([]byte(nil), ctx.Response.Body()...)
	}
	const points = `[[1.686162,42.552528],[1.733594,42.543642]]`
	route := func(vehicle string) (distance, duration float64) {
		var d struct {
			Routes []struct {
				Summary struct {
					DistanceM float64 `json:"distance_m"`
					DurationS float64 `json:"duration_s"`
				} `json:"summary"`
			} `json:"routes"`
		}
		if err := json.Unmarshal(post("/v1/directions", `{"profile":"truck","coordinates":`+points+vehicle+`}`, 200), &d); err != nil {
			t.Fatal(err)
		}
		return d.Routes[0].Summary.DistanceM, d.Routes[0].Summary.DurationS
	}
	through, throughS := route("")
	own, ownS := route(`,"vehicle":{"height_m":4.0,"width_m":2.55,"length_m":12,"weight_t":18}`)
	high, highS := route(`,"vehicle":{"height_m":4.4}`)
	t.Logf("truck: %.0f m %.0f s; its own vehicle stated %.0f m %.0f s; 4.4 m high %.0f m %.0f s", through, throughS, own, ownS, high, highS)
	if through > 7000 || own != through || ownS != throughS || high < 9000 || highS <= throughS {
		t.Errorf("want the tunnel (under 7 km) without a vehicle and with the profile's own, the pass (over 9 km, longer) at 4.4 m")
	}
	cell := func(vehicle string) float64 {
		var m struct {
			Durations [][]float64 `json:"durations"`
		}
		body := `{"profile":"truck","sources":[[1.686162,42.552528]],"targets":[[1.733594,42.543642]]` + vehicle + `}`
		if err := json.Unmarshal(post("/v1/matrix", body, 200), &m); err != nil {
			t.Fatal(err)
		}
		return m.Durations[0][0]
	}
	if plain, tall := cell(""), cell(`,"vehicle":{"height_m":4.4}`); tall <= plain || tall != highS || plain != throughS {
		t.Errorf("matrix: %v s without a vehicle, %v s at 4.4 m; directions said %v and %v", plain, tall, throughS, highS)
	}
	iso := func(vehicle string) []byte {
		return post("/v1/isochrone", `{"profile":"truck","origin":[1.686162,42.552528],"contours":[{"time_minutes":10}]`+vehicle+`}`, 200)
	}
	if bytes.Equal(iso(""), iso(`,"vehicle":{"height_m":4.4}`)) {
		t.Error("isochrone: ten minutes from Grau Roig reach the same at 4.4 m as through the tunnel")
	}
	refused := string(post("/v1/directions", `{"profile":"car","coordinates":`+points+`,"vehicle":{"height_m":4.4}}`, 400))
	if !strings.Contains(refused, `"/vehicle"`) || !strings.Contains(refused, `applies only to profile \"truck\"`) {
		t.Errorf("a vehicle on the car: %s", refused)
	}
}

// TestExcludedDetailNamesTheVehicle: the 422 of a leg only the vehicle's limits cut says so and names the vehicle;
// with exclusions alone it reads as it did before the vehicle existed.
func TestExcludedDetailNamesTheVehicle(t *testing.T) {
	for _, c := range []struct {
		ex   route.ExcludedError
		want string
	}{
		{route.ExcludedError{Index: 0, Vehicle: route.Vehicle{HeightM: 4.4, WeightT: 40}},
			"no truck route from waypoint 0 to waypoint 1 for a vehicle 4.4 m high, 40 t: its limits leave none (there is one for the profile's own vehicle)"},
		{route.ExcludedError{Index: 1, Exclude: route.ExcludeToll, Vehicle: route.Vehicle{Hazmat: true}},
			"no truck route from waypoint 1 to waypoint 2 without toll roads for a vehicle carrying dangerous goods: the exclusion and the vehicle's limits leave none"},
		{route.ExcludedError{Index: 0, Exclude: route.ExcludeTunnel | route.ExcludeUnpaved},
			"no truck route from waypoint 0 to waypoint 1 without unpaved, tunnel roads: the exclusion leaves none (there is one with them)"},
	} {
		if got := excludedDetail("truck", &c.ex); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.ex, got, c.want)
		}
	}
}
