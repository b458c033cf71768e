package playground

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/roadops/resolve"
)

// OperationsPrefix is where the page finds the road operations in force,
// to draw them as a layer (issue 42): free and keyless like the tiles,
// since they only say which roads are closed or slowed and why.
const OperationsPrefix = "/roadops/"

const operationsPath = OperationsPrefix + "active.geojson"

// opFeature is an operation in force as the page draws it: the road it was
// placed on, segment by segment, and what it is.
type opFeature struct {
	Type       string     `json:"type"`
	ID         string     `json:"id"`
	Geometry   opGeometry `json:"geometry"`
	Properties opProps    `json:"properties"`
}

type opGeometry struct {
	Type        string         `json:"type"`
	Coordinates [][][2]float64 `json:"coordinates"`
}

type opProps struct {
	ID         string            `json:"id"`
	Kind       roadops.Kind      `json:"kind"`
	Reason     string            `json:"reason"`
	Reference  string            `json:"reference,omitempty"`
	Direction  roadops.Direction `json:"direction"`
	Factor     float64           `json:"factor,omitempty"`
	SpeedKPH   float64           `json:"speed_kph,omitempty"`
	Profiles   []string          `json:"profiles,omitempty"`
	ValidFrom  *time.Time        `json:"valid_from,omitempty"`
	ValidUntil *time.Time        `json:"valid_until,omitempty"`
	Segments   int               `json:"segments"`
}

// Operations answers GET /roadops/active.geojson: a FeatureCollection of
// the reviewed operations in force now that resolved on the release being
// served, each a MultiLineString of its segments. With no operations store
// (Options.Operations nil), or while a swapped-in release is being
// resolved, the collection is empty; "served" says whether mapd applies
// operations at all.
func (p *Playground) Operations(ctx *fasthttp.RequestCtx) {
	if string(ctx.Path()) != operationsPath {
		notFound(ctx, fmt.Sprintf("no %s: the road operations in force are at %s", ctx.Path(), operationsPath))
		return
	}
	if p.pace.every > 0 && !p.pace.wait() {
		ctx.Response.Header.Set("Retry-After", "1")
		ctx.Error(fmt.Sprintf("more than %v of playground requests are waiting; retry after 1 s", tileMaxWait), fasthttp.StatusServiceUnavailable)
		return
	}
	rel, done := p.releases.Acquire()
	defer done()
	fc := struct {
		Type        string      `json:"type"`
		DataVersion string      `json:"data_version"`
		Served      bool        `json:"served"`
		Features    []opFeature `json:"features"`
	}{Type: "FeatureCollection", DataVersion: rel.Manifest.DataVersion, Served: p.opts.Operations != nil, Features: []opFeature{}}
	if p.opts.Operations != nil {
		if version, placed := p.opts.Operations(time.Now()); version == rel.Manifest.DataVersion {
			for _, pl := range placed {
				fc.Features = append(fc.Features, feature(rel.Network, pl))
			}
		}
	}
	b, err := json.Marshal(fc)
	if err != nil {
		ctx.Error(err.Error(), fasthttp.StatusInternalServerError)
		return
	}
	ctx.Response.Header.Set("Cache-Control", "no-store")
	ctx.SetContentType("application/geo+json")
	ctx.SetBody(b)
}

// feature draws an operation placed on net's segments.
func feature(net *graph.Network, pl resolve.Placed) opFeature {
	op := pl.Op
	lines := make([][][2]float64, 0, len(pl.Segs))
	for _, s := range pl.Segs {
		begin, end := net.Points(s)
		line := make([][2]float64, 0, end-begin)
		for i := begin; i < end; i++ {
			lon, lat := net.Point(i)
			line = append(line, [2]float64{round6(lon), round6(lat)})
		}
		lines = append(lines, line)
	}
	return opFeature{Type: "Feature", ID: op.ID, Geometry: opGeometry{Type: "MultiLineString", Coordinates: lines},
		Properties: opProps{ID: op.ID, Kind: op.Kind, Reason: op.Reason, Reference: op.Reference, Direction: op.Direction, Factor: op.Factor,
			SpeedKPH: op.SpeedKPH, Profiles: op.Profiles, ValidFrom: op.ValidFrom, ValidUntil: op.ValidUntil, Segments: len(pl.Segs)}}
}
