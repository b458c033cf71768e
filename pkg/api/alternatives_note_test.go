package api

import (
	"encoding/json"
	"testing"

	"github.com/valyala/fasthttp"
)

// TestAlternativesNote: a request of three or more waypoints that asks for
// alternatives is told they are not offered there (issue 36), and the note
// is absent where alternatives are offered or none were asked for.
func TestAlternativesNote(t *testing.T) {
	d := newDirectionsBench(t)
	var ctx fasthttp.RequestCtx
	three := `[[1.5218,42.5063],[1.5962,42.5340],[1.7333,42.5425]]`
	two := `[[1.5218,42.5063],[1.7333,42.5425]]`
	for _, c := range []struct {
		coords string
		alts   int
		note   string
	}{
		{three, 1, "alternatives are offered for two waypoints only; this request has 3, so only the best route is returned"},
		{three, 0, ""},
		{two, 1, ""},
	} {
		body := []byte(`{"coordinates":` + c.coords + `,"alternatives":` + string(rune('0'+c.alts)) + `}`)
		d.handle(t, &ctx, "/v1/directions", body)
		var ans struct {
			Routes []json.RawMessage `json:"routes"`
			Note   *string           `json:"alternatives_note"`
		}
		if err := json.Unmarshal(ctx.Response.Body(), &ans); err != nil {
			t.Fatal(err)
		}
		switch {
		case c.note == "" && ans.Note != nil:
			t.Errorf("%s alternatives %d: unexpected note %q", c.coords, c.alts, *ans.Note)
		case c.note != "" && (ans.Note == nil || *ans.Note != c.note):
			t.Errorf("%s alternatives %d: note %v, want %q", c.coords, c.alts, ans.Note, c.note)
		case c.note != "" && len(ans.Routes) != 1:
			t.Errorf("%s: %d routes, want the best only", c.coords, len(ans.Routes))
		}
	}
}
