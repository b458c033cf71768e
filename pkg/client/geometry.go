package client

// Decoding the answers' geometry into github.com/paulmach/orb types
// (written by hand beside the generated code): a route's line arrives as an
// encoded polyline or as a GeoJSON LineString serialised into a string, and
// an isochrone's contour as a Polygon or a MultiPolygon.

import (
	"encoding/json"
	"fmt"

	"github.com/paulmach/orb"

	"github.com/mapsco/maps/pkg/polyline"
)

// Line decodes the route's geometry, given the geometry_format the request
// asked for (nil or polyline6: an encoded polyline with 6 digits; geojson:
// a serialised GeoJSON LineString), into [lon, lat] points.
func (r Route) Line(format *DirectionsRequestGeometryFormat) (orb.LineString, error) {
	if format == nil || *format == Polyline6 {
		pts, err := polyline.Decode([]byte(r.Geometry), 6)
		if err != nil {
			return nil, fmt.Errorf("client: route geometry as polyline6: %w", err)
		}
		line := make(orb.LineString, len(pts))
		for i, p := range pts {
			line[i] = orb.Point(p)
		}
		return line, nil
	}
	if *format != Geojson {
		return nil, fmt.Errorf("client: route geometry: unknown geometry_format %q", *format)
	}
	var g struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	}
	if err := json.Unmarshal([]byte(r.Geometry), &g); err != nil {
		return nil, fmt.Errorf("client: route geometry as GeoJSON: %w", err)
	}
	if g.Type != "LineString" {
		return nil, fmt.Errorf("client: route geometry: GeoJSON %q, want a LineString", g.Type)
	}
	var line orb.LineString
	if err := json.Unmarshal(g.Coordinates, &line); err != nil {
		return nil, fmt.Errorf("client: route geometry as GeoJSON: %w", err)
	}
	return line, nil
}

// GeometryType says which member of the union the contour holds: "Polygon"
// or "MultiPolygon".
func (g IsochroneFeature_Geometry) GeometryType() (string, error) {
	var t struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(g.union, &t); err != nil {
		return "", fmt.Errorf("client: isochrone geometry: %w", err)
	}
	return t.Type, nil
}

// MultiPolygon returns the contour as a MultiPolygon whatever its GeoJSON
// type (a Polygon becomes a MultiPolygon of one), so that every contour is
// handled alike; rings are [lon, lat], the outer ring first.
func (f IsochroneFeature) MultiPolygon() (orb.MultiPolygon, error) {
	typ, err := f.Geometry.GeometryType()
	if err != nil {
		return nil, err
	}
	switch typ {
	case "Polygon":
		p, err := f.Geometry.AsPolygon()
		if err != nil {
			return nil, fmt.Errorf("client: isochrone Polygon: %w", err)
		}
		return orb.MultiPolygon{polygon(p.Coordinates)}, nil
	case "MultiPolygon":
		mp, err := f.Geometry.AsMultiPolygon()
		if err != nil {
			return nil, fmt.Errorf("client: isochrone MultiPolygon: %w", err)
		}
		out := make(orb.MultiPolygon, len(mp.Coordinates))
		for i, rings := range mp.Coordinates {
			out[i] = polygon(rings)
		}
		return out, nil
	}
	return nil, fmt.Errorf("client: isochrone geometry: GeoJSON %q, want Polygon or MultiPolygon", typ)
}

func polygon(rings []LinearRing) orb.Polygon {
	out := make(orb.Polygon, len(rings))
	for i, ring := range rings {
		r := make(orb.Ring, len(ring))
		for j, c := range ring {
			if len(c) >= 2 {
				r[j] = orb.Point{c[0], c[1]}
			}
		}
		out[i] = r
	}
	return out
}
