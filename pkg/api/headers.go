package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"
)

// AttributionHeader carries the notice the ODbL requires wherever data
// derived from OpenStreetMap is shown. It is on every response, success or
// problem, so a client that forwards our answers can forward the notice.
const AttributionHeader = "X-Attribution"

// Attribution is the notice, as text. /v1/status and the OpenAPI document
// carry it in UTF-8.
const Attribution = "© OpenStreetMap contributors, ODbL"

// attributionLatin1 is Attribution as the header sends it. HTTP defines
// header bytes as ISO-8859-1 (RFC 9110 §5.5), and that is how browsers'
// fetch, Python, Java and Node decode them, so © is the one byte 0xA9; sent
// as UTF-8 (0xC2 0xA9) those clients would show "Â©". curl prints the raw
// byte: pipe it through `iconv -f latin1` on a UTF-8 terminal.
var attributionLatin1 = latin1(Attribution)

// latin1 encodes s, which must hold only code points below 256, in ISO-8859-1.
func latin1(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			panic(fmt.Sprintf("api: %q is not ISO-8859-1", s))
		}
		b = append(b, byte(r))
	}
	return string(b)
}

// Deprecation announces that a path goes away (spec §9.4): responses on it
// carry Deprecation (RFC 9745, the moment it was deprecated) and Sunset
// (RFC 8594, when it stops answering).
type Deprecation struct {
	Path       string    // e.g. /v1/directions
	Deprecated time.Time // when the deprecation took effect
	Sunset     time.Time // when the path stops answering
}

// ParseDeprecation reads the --deprecate flag: PATH=SUNSET, or
// PATH=DEPRECATED/SUNSET, dates as YYYY-MM-DD (UTC midnight). With one date
// the deprecation is dated twelve months before the sunset, the notice the
// specification promises.
func ParseDeprecation(s string) (Deprecation, error) {
	path, dates, ok := strings.Cut(s, "=")
	if !ok || !strings.HasPrefix(path, "/v1/") {
		return Deprecation{}, fmt.Errorf("deprecation %q: want /v1/PATH=SUNSET or /v1/PATH=DEPRECATED/SUNSET (dates YYYY-MM-DD)", s)
	}
	d := Deprecation{Path: path}
	first, second, two := strings.Cut(dates, "/")
	var err error
	if d.Sunset, err = time.Parse(time.DateOnly, first); err != nil {
		return Deprecation{}, fmt.Errorf("deprecation %q: %w", s, err)
	}
	d.Deprecated = d.Sunset.AddDate(-1, 0, 0)
	if two {
		d.Deprecated = d.Sunset
		if d.Sunset, err = time.Parse(time.DateOnly, second); err != nil {
			return Deprecation{}, fmt.Errorf("deprecation %q: %w", s, err)
		}
	}
	if !d.Deprecated.Before(d.Sunset) {
		return Deprecation{}, fmt.Errorf("deprecation %q: the sunset must come after the deprecation", s)
	}
	return d, nil
}

// headers returns the response headers announcing d.
func (d Deprecation) headers() [][2]string {
	return [][2]string{
		{"Deprecation", "@" + strconv.FormatInt(d.Deprecated.Unix(), 10)},
		{"Sunset", d.Sunset.UTC().Format(http.TimeFormat)},
	}
}

// applyDeprecations adds each deprecation's headers to its path. A path that
// is not an endpoint is refused: it is a typo that would announce nothing.
func (s *Server) applyDeprecations(ds []Deprecation) error {
	for _, d := range ds {
		p, ok := s.paths[d.Path]
		if !ok {
			return fmt.Errorf("api: deprecation of %s: no such endpoint", d.Path)
		}
		p.headers = append(p.headers, d.headers()...)
		s.paths[d.Path] = p
	}
	return nil
}

// setHeaders writes the headers every response carries, then the path's own.
func setHeaders(ctx *fasthttp.RequestCtx, extra [][2]string) {
	ctx.Response.Header.Set(AttributionHeader, attributionLatin1)
	for _, h := range extra {
		ctx.Response.Header.Set(h[0], h[1])
	}
}

// allows reports whether a path taking method answers a request made with
// got: its own method, and HEAD wherever GET is taken (RFC 9110 §9.3.2;
// load balancers probe the health endpoints with HEAD). fasthttp sends a
// HEAD answer's headers, Content-Length included, without its body.
func allows(method string, got []byte) bool {
	return string(got) == method || method == fasthttp.MethodGet && string(got) == fasthttp.MethodHead
}

// allowHeader is the Allow header of a 405 on a path taking method.
func allowHeader(method string) string {
	if method == fasthttp.MethodGet {
		return "GET, HEAD"
	}
	return method
}
