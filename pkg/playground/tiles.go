package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/tiles"
)

// tileJSONPath describes the tiles (TileJSON 3.0.0) for the page's map.
const tileJSONPath = TilesPrefix + "tiles.json"

// Tiles answers GET /tiles/tiles.json and /tiles/Z/X/Y.mvt from the release
// being served. A tile's ETag is the release's data_version, so a browser
// revalidates it with one cheap request and gets the new release's roads
// after a swap.
func (p *Playground) Tiles(ctx *fasthttp.RequestCtx) {
	rel, done := p.releases.Acquire()
	defer done() // the tile views the release's mapping until it is written
	version := rel.Manifest.DataVersion
	src := tiles.New(rel.Network, rel.Snap)
	if string(ctx.Path()) == tileJSONPath {
		writeTileJSON(ctx, src, version)
		return
	}
	t, err := parseTilePath(string(ctx.Path()[len(TilesPrefix):]))
	if err != nil {
		notFound(ctx, fmt.Sprintf("%s: %v", ctx.Path(), err))
		return
	}
	h := &ctx.Response.Header
	if p.pace.every > 0 && !p.pace.wait() {
		h.Set("Retry-After", "1")
		ctx.Error(fmt.Sprintf("more than %v of tile requests are waiting; retry after 1 s", tileMaxWait), fasthttp.StatusServiceUnavailable)
		return
	}
	etag := `"` + version + `"`
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", etag)
	h.Set("Vary", "Accept-Encoding")
	if string(ctx.Request.Header.Peek("If-None-Match")) == etag {
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		return
	}
	path := string(ctx.Path())
	cached, ok := p.cache.get(version, path)
	if !ok {
		release, admitted := p.admit()
		if !admitted {
			h.Del("ETag")
			h.Set("Retry-After", "1")
			ctx.Error("the server is busy with paid requests: tiles not yet cached are computed only when it is idle; retry after 1 s", fasthttp.StatusServiceUnavailable)
			return
		}
		b, err := src.Encode(t)
		release()
		switch {
		case errors.Is(err, tiles.ErrNoTile):
			notFound(ctx, err.Error())
			return
		case err != nil:
			ctx.Error(err.Error(), fasthttp.StatusInternalServerError)
			return
		}
		cached = p.cache.put(version, path, b)
	}
	ctx.SetContentType("application/vnd.mapbox-vector-tile")
	b := cached.raw
	if ctx.Request.Header.HasAcceptEncoding("gzip") {
		h.Set("Content-Encoding", "gzip")
		b = cached.gz
	}
	ctx.Response.SetBodyRaw(b) // the cache's bytes are never changed
}

// admit asks Options.Admit for a slot to compute a tile in, again every
// few milliseconds for up to tileMaxWait: a page asks a dozen tiles at once
// and only one computes at a time, so the others wait their turn rather
// than being refused at once; a tile is refused only when paid requests
// keep the server busy that long.
func (p *Playground) admit() (release func(), ok bool) {
	if p.opts.Admit == nil {
		return func() {}, true
	}
	deadline := time.Now().Add(tileMaxWait)
	for {
		if release, ok = p.opts.Admit(); ok || time.Now().After(deadline) {
			return release, ok
		}
		time.Sleep(tileAdmitPoll)
	}
}

// tileAdmitPoll is how often a tile waiting for a slot asks again.
const tileAdmitPoll = 5 * time.Millisecond

// tileJSON is the TileJSON 3.0.0 document of the tiles.
type tileJSON struct {
	TileJSON     string        `json:"tilejson"`
	Name         string        `json:"name"`
	Version      string        `json:"version"`
	DataVersion  string        `json:"data_version"`
	Attribution  string        `json:"attribution"`
	Tiles        []string      `json:"tiles"`
	MinZoom      int           `json:"minzoom"`
	MaxZoom      int           `json:"maxzoom"`
	Bounds       [4]float64    `json:"bounds"`
	Center       [3]float64    `json:"center"`
	VectorLayers []vectorLayer `json:"vector_layers"`
}

type vectorLayer struct {
	ID          string            `json:"id"`
	Description string            `json:"description"`
	MinZoom     int               `json:"minzoom"`
	MaxZoom     int               `json:"maxzoom"`
	Fields      map[string]string `json:"fields"`
}

// writeTileJSON answers the TileJSON document. The tile URL is a path: the
// page resolves it against its own address, whatever proxy stands before
// mapd.
func writeTileJSON(ctx *fasthttp.RequestCtx, src *tiles.Source, version string) {
	b := src.Bounds()
	c := b.Center()
	doc := tileJSON{
		TileJSON: "3.0.0", Name: "roads of release " + version, Version: "1.0.0", DataVersion: version,
		Attribution: "© OpenStreetMap contributors",
		Tiles:       []string{TilesPrefix + "{z}/{x}/{y}.mvt"},
		MaxZoom:     tiles.MaxZoom,
		Bounds:      [4]float64{b.Min[0], b.Min[1], b.Max[0], b.Max[1]},
		Center:      [3]float64{c[0], c[1], 11},
		VectorLayers: []vectorLayer{{ID: tiles.Layer, Description: "Every segment of the road network, one line each; the feature id is the segment id.",
			MaxZoom: tiles.MaxZoom, Fields: map[string]string{
				"class": "OSM highway value", "name": "road name, when known", "ref": "road reference, when known"}}},
	}
	body, _ := json.Marshal(doc) // plain fields: cannot fail
	ctx.Response.Header.Set("Cache-Control", "no-cache")
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
}
