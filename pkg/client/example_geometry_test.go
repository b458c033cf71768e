package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/mapsco/maps/pkg/client"
)

// A route's line, decoded into orb points from either geometry_format: the
// polyline6 default and the GeoJSON LineString give the same points.
func ExampleRoute_Line() {
	c, err := client.NewClientWithResponses(mapdURL+"/v1", client.WithKey(apiKey))
	if err != nil {
		log.Fatal(err)
	}
	lines := map[client.DirectionsRequestGeometryFormat]orb.LineString{}
	for _, format := range []client.DirectionsRequestGeometryFormat{client.Polyline6, client.Geojson} {
		resp, err := c.GetDirectionsWithResponse(context.Background(), nil, client.DirectionsRequest{
			Coordinates:    []client.Coordinate{{1.5218, 42.5063}, {1.7333, 42.5425}},
			GeometryFormat: &format,
		})
		if err != nil || resp.JSON200 == nil {
			log.Fatalf("%v %s", err, resp.Body)
		}
		if lines[format], err = resp.JSON200.Routes[0].Line(&format); err != nil {
			log.Fatal(err)
		}
	}
	p, g := lines[client.Polyline6], lines[client.Geojson]
	same := len(p) == len(g)
	for i := range p {
		same = same && planar.Distance(p[i], g[i]) < 1e-6
	}
	fmt.Printf("starts in Andorra la Vella: %v; both formats the same %v points: %v\n",
		planar.Distance(p[0], orb.Point{1.5218, 42.5063}) < 0.01, len(p) > 100, same)
	// Output: starts in Andorra la Vella: true; both formats the same true points: true
}

// An isochrone's contours as orb multipolygons, whether the document sent a
// Polygon or a MultiPolygon: each holds its origin.
func ExampleIsochroneFeature_MultiPolygon() {
	c, err := client.NewClientWithResponses(mapdURL+"/v1", client.WithKey(apiKey))
	if err != nil {
		log.Fatal(err)
	}
	ten, twenty := 10.0, 20.0
	resp, err := c.GetIsochroneWithResponse(context.Background(), nil, client.IsochroneRequest{
		Origin:   client.Coordinate{1.5218, 42.5063},
		Contours: []client.Contour{{TimeMinutes: &ten}, {TimeMinutes: &twenty}},
	})
	if err != nil || resp.JSON200 == nil {
		log.Fatalf("%v %s", err, resp.Body)
	}
	for _, f := range resp.JSON200.Features.Features {
		mp, err := f.MultiPolygon()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%.0f %s: holds the origin %v\n", f.Properties.Contour, f.Properties.Unit,
			planar.MultiPolygonContains(mp, orb.Point{1.5218, 42.5063}))
	}
	// Output:
	// 10 minutes: holds the origin true
	// 20 minutes: holds the origin true
}

// TestGeometryErrors: what cannot be decoded says why, never panics.
func TestGeometryErrors(t *testing.T) {
	poly, geo, other := client.Polyline6, client.Geojson, client.DirectionsRequestGeometryFormat("wkt")
	for _, c := range []struct {
		geometry string
		format   *client.DirectionsRequestGeometryFormat
		want     string
	}{
		{"_p~iF~ps|U\x01", nil, "polyline6"},
		{"_p~iF", &poly, "polyline6"},
		{`{"type":"Point","coordinates":[1,2]}`, &geo, `"Point", want a LineString`},
		{`not json`, &geo, "GeoJSON"},
		{"", &other, `unknown geometry_format "wkt"`},
	} {
		if _, err := (client.Route{Geometry: c.geometry}).Line(c.format); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Line(%q) = %v, want an error with %q", c.geometry, err, c.want)
		}
	}
	var f client.IsochroneFeature
	if err := json.Unmarshal([]byte(`{"type":"Feature","properties":{"contour":5,"unit":"minutes"},"geometry":{"type":"Point","coordinates":[1,2]}}`), &f); err != nil {
		t.Fatal(err)
	}
	if _, err := f.MultiPolygon(); err == nil || !strings.Contains(err.Error(), `"Point", want Polygon or MultiPolygon`) {
		t.Errorf("a Point contour: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"type":"Feature","properties":{"contour":5,"unit":"minutes"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}`), &f); err != nil {
		t.Fatal(err)
	}
	if mp, err := f.MultiPolygon(); err != nil || len(mp) != 1 || len(mp[0][0]) != 4 || mp[0][0][1] != (orb.Point{1, 0}) {
		t.Errorf("a Polygon contour: %v %v", mp, err)
	}
}

// TestBearingIsNumbers: the document's Bearing declares its items, so the
// client types it []float64 (it was []interface{}).
func TestBearingIsNumbers(t *testing.T) {
	b := client.Bearing{90, 45}
	body, err := json.Marshal(client.IsochroneRequest{Origin: client.Coordinate{1.5218, 42.5063}, Bearing: &b,
		Contours: []client.Contour{}})
	if err != nil || !strings.Contains(string(body), `"bearing":[90,45]`) {
		t.Errorf("%s %v", body, err)
	}
}
