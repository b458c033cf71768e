// Package playground serves mapd's playground (mapd serve --playground): a
// page for operators and developers on a trusted network that calls the
// /v1 API with a key they type in and draws the answers on a map, and what
// that map is made of: the vector tiles of the served release's roads, its
// place names and search (from the release's place index, package
// places), and the road operations in force.
//
// The page's files are built from web/playground by esbuild (MapLibre GL JS
// and the page's own code) into static/, committed, and compiled in: mapd
// fetches nothing at run time and the page works offline. `make test`
// rebuilds them and fails if they differ from what is committed
// (scripts/web-check).
//
// Neither the page nor the tiles, names or operations take a key or cost
// credits; the API calls the page makes are metered like any other
// (docs/playground.md says why).
// A Playground is safe for concurrent use; it follows release swaps.
package playground

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/roadops/resolve"
	"github.com/mapsco/maps/pkg/serving"
)

// Prefixes of the paths served.
const (
	PagePrefix  = "/playground/"
	TilesPrefix = "/tiles/"
)

//go:embed static
var static embed.FS

// asset is one file of the page, with its validator.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// Playground answers the page and the tiles.
type Playground struct {
	releases *serving.Holder
	assets   map[string]asset // by path under PagePrefix; "" is index.html
	opts     Options
	cache    tileCache
	pace     pacer
}

// Options tune a Playground; the zero value computes every tile at once.
type Options struct {
	// Admit gives a tile that is not cached a slot to compute in, or says
	// no (the tile is answered 503 with Retry-After). nil admits all.
	Admit func() (release func(), ok bool)
	// TileRate is how many tile requests a second are answered, all
	// clients together; more wait their turn (up to 5 s, then 503).
	// 0 means DefaultTileRate; negative, no pacing.
	TileRate int
	// Operations returns the road operations in force at now, placed on
	// the release of the data version returned; nil when mapd reads no
	// operations (the layer is then empty).
	Operations func(now time.Time) (dataVersion string, placed []resolve.Placed)
}

// New returns a Playground over the releases mapd serves.
func New(releases *serving.Holder, opts Options) (*Playground, error) {
	p := &Playground{releases: releases, assets: map[string]asset{}, opts: opts}
	switch {
	case opts.TileRate == 0:
		p.pace.every = time.Second / DefaultTileRate
	case opts.TileRate > 0:
		p.pace.every = time.Second / time.Duration(opts.TileRate)
	}
	err := fs.WalkDir(static, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		p.assets[strings.TrimPrefix(name, "static/")] = asset{body: b, contentType: ct, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("playground: read the page's files: %w", err)
	}
	if _, ok := p.assets["index.html"]; !ok {
		return nil, fmt.Errorf("playground: the page was not built: no static/index.html")
	}
	p.assets[""] = p.assets["index.html"]
	return p, nil
}

// contentSecurityPolicy lets the page load only its own files and call only
// this server: a page that holds a secret key runs no script from
// elsewhere and sends nothing elsewhere. MapLibre draws its images from
// blob: and data: URLs and sets inline styles.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; worker-src 'self' blob:; " +
	"img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// Page answers GET /playground/ and its files.
func (p *Playground) Page(ctx *fasthttp.RequestCtx) {
	name, ok := strings.CutPrefix(string(ctx.Path()), PagePrefix)
	if !ok { // the prefix without its slash: relative URLs need it
		ctx.Redirect(PagePrefix, fasthttp.StatusPermanentRedirect)
		return
	}
	a, ok := p.assets[name]
	if !ok {
		notFound(ctx, fmt.Sprintf("no file %s in the playground", ctx.Path()))
		return
	}
	h := &ctx.Response.Header
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.etag)
	if string(ctx.Request.Header.Peek("If-None-Match")) == a.etag {
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		return
	}
	ctx.SetContentType(a.contentType)
	ctx.SetBody(a.body)
}

// notFound answers 404 with an RFC 9457 problem of the generic type: the
// playground is not part of the /v1 API and its problem table.
func notFound(ctx *fasthttp.RequestCtx, detail string) {
	ctx.SetStatusCode(fasthttp.StatusNotFound)
	ctx.SetContentType("application/problem+json")
	d, _ := json.Marshal(detail)
	fmt.Fprintf(ctx, `{"type":"about:blank","title":"Not Found","status":404,"detail":%s}`, d)
}
