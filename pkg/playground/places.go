package playground

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/places"
)

// PlacesPrefix is where the page finds place names: its search box and the
// names on its map, from the release's own place index (package places).
// Like tiles they are free, take no key and are paced with them.
const PlacesPrefix = "/places/"

// place is one place as the page receives it.
type place struct {
	Name string  `json:"name"`
	Kind string  `json:"kind"`
	Near string  `json:"near,omitempty"`
	Lon  float64 `json:"lon"`
	Lat  float64 `json:"lat"`
}

// Places answers GET /places/search?q=TEXT[&limit=N] (up to
// places.MaxLimit matches, best first; the query at most places.MaxQuery
// bytes) and GET /places/labels?bbox=W,S,E,N&zoom=Z (the places a map at
// zoom Z labels inside the box, largest first, up to places.MaxLimit·10).
func (p *Playground) Places(ctx *fasthttp.RequestCtx) {
	rel, done := p.releases.Acquire()
	defer done()
	x := rel.Places
	if x == nil {
		notFound(ctx, "this release has no place index: it was built by a mapc before places were indexed; rebuild it")
		return
	}
	if p.pace.every > 0 && !p.pace.wait() {
		ctx.Response.Header.Set("Retry-After", "1")
		ctx.Error(fmt.Sprintf("more than %v of tile and place requests are waiting; retry after 1 s", tileMaxWait), fasthttp.StatusServiceUnavailable)
		return
	}
	args := ctx.QueryArgs()
	var body any
	switch strings.TrimPrefix(string(ctx.Path()), PlacesPrefix) {
	case "search":
		q := string(args.Peek("q"))
		limit, err := intArg(args, "limit", 8, 1, places.MaxLimit)
		switch {
		case err != nil:
			badRequest(ctx, err.Error())
			return
		case len(q) > places.MaxQuery:
			badRequest(ctx, fmt.Sprintf("q is %d bytes, over the %d a search reads", len(q), places.MaxQuery))
			return
		}
		body = map[string]any{"data_version": rel.Manifest.DataVersion, "query": places.Normalize(q), "results": toPlaces(matches(x.Search(q, limit)))}
	case "labels":
		box, zoom, err := labelArgs(args)
		if err != nil {
			badRequest(ctx, err.Error())
			return
		}
		body = map[string]any{"data_version": rel.Manifest.DataVersion, "places": toPlaces(x.Within(box[0], box[1], box[2], box[3], zoom, 10*places.MaxLimit))}
	default:
		notFound(ctx, fmt.Sprintf("no %s: the place paths are %ssearch and %slabels", ctx.Path(), PlacesPrefix, PlacesPrefix))
		return
	}
	b, _ := json.Marshal(body) // strings, numbers and slices: cannot fail
	ctx.Response.Header.Set("Cache-Control", "no-cache")
	ctx.SetContentType("application/json")
	ctx.SetBody(b)
}

func matches(ms []places.Match) []places.Entry {
	out := make([]places.Entry, len(ms))
	for i, m := range ms {
		out[i] = m.Entry
	}
	return out
}

func toPlaces(es []places.Entry) []place {
	out := make([]place, len(es))
	for i, e := range es {
		out[i] = place{Name: e.Name, Kind: e.Kind.String(), Near: e.Near, Lon: round6(e.Lon), Lat: round6(e.Lat)}
	}
	return out
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// intArg reads an optional whole number within [lo, hi].
func intArg(args *fasthttp.Args, name string, def, lo, hi int) (int, error) {
	s := string(args.Peek(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be a whole number from %d to %d, not %q", name, lo, hi, s)
	}
	return n, nil
}

// labelArgs reads bbox=W,S,E,N (degrees, W<E, S<N) and zoom (0 to 24).
func labelArgs(args *fasthttp.Args) (box [4]float64, zoom float64, err error) {
	parts := strings.Split(string(args.Peek("bbox")), ",")
	if len(parts) != 4 {
		return box, 0, fmt.Errorf("bbox must be W,S,E,N in degrees")
	}
	for i, s := range parts {
		if box[i], err = strconv.ParseFloat(s, 64); err != nil || math.IsNaN(box[i]) || math.IsInf(box[i], 0) {
			return box, 0, fmt.Errorf("bbox must be W,S,E,N in degrees: %q is not a number", s)
		}
	}
	if box[0] > box[2] || box[1] > box[3] {
		return box, 0, fmt.Errorf("bbox must be W,S,E,N with W ≤ E and S ≤ N")
	}
	zoom, err = strconv.ParseFloat(string(args.Peek("zoom")), 64)
	if err != nil || !(zoom >= 0 && zoom <= 24) {
		return box, 0, fmt.Errorf("zoom must be a number from 0 to 24")
	}
	return box, zoom, nil
}

// badRequest answers 400 with an RFC 9457 problem of the generic type.
func badRequest(ctx *fasthttp.RequestCtx, detail string) {
	ctx.SetStatusCode(fasthttp.StatusBadRequest)
	ctx.SetContentType("application/problem+json")
	d, _ := json.Marshal(detail)
	fmt.Fprintf(ctx, `{"type":"about:blank","title":"Bad Request","status":400,"detail":%s}`, d)
}
