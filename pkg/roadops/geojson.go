package roadops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Limits of DecodeFeatureCollection.
const (
	// MaxImportFeatures bounds the operations of one import.
	MaxImportFeatures = 10000
	// maxImportErrors is how many invalid features one error lists.
	maxImportErrors = 20
)

// ImportProperties are the members a feature's properties may hold; any
// other member is refused, so that a typo ("speed_khp") is an error rather
// than a slowdown silently missing its speed. ID, State, CreatedAt and
// UpdatedAt are what EncodeFeatureCollection writes besides, and are
// ignored: an import always makes new drafts.
type ImportProperties struct {
	ID         string      `json:"id"`
	State      Review      `json:"state"`
	CreatedAt  *time.Time  `json:"created_at"`
	UpdatedAt  *time.Time  `json:"updated_at"`
	Kind       Kind        `json:"kind"`
	Way        int64       `json:"way"`
	From       *[2]float64 `json:"from"`
	To         *[2]float64 `json:"to"`
	Direction  Direction   `json:"direction"`
	Factor     float64     `json:"factor"`
	SpeedKPH   float64     `json:"speed_kph"`
	Profiles   []string    `json:"profiles"`
	ValidFrom  *time.Time  `json:"valid_from"`
	ValidUntil *time.Time  `json:"valid_until"`
	Reason     string      `json:"reason"`
	Reference  string      `json:"reference"`
}

type featureCollection struct {
	Type     string            `json:"type"`
	Features []json.RawMessage `json:"features"`
}

type feature struct {
	Type       string          `json:"type"`
	Geometry   *geometry       `json:"geometry"`
	Properties json.RawMessage `json:"properties"`
}

type geometry struct {
	Type        string          `json:"type"`
	Coordinates json.RawMessage `json:"coordinates"`
}

// DecodeFeatureCollection reads operations from a GeoJSON FeatureCollection:
// a LineString feature is a line operation, a Polygon feature a polygon
// operation, and a feature without geometry ("geometry": null) whose
// properties give "way" a way operation. Properties give the rest
// (ImportProperties). Every operation is validated; the error lists every
// invalid feature (up to 20) by its index in "features", from 0, and the
// field. Nothing is returned unless all are valid.
func DecodeFeatureCollection(data []byte) ([]Operation, error) {
	var fc featureCollection
	if err := json.Unmarshal(data, &fc); err != nil {
		return nil, fmt.Errorf("not a GeoJSON FeatureCollection: %w", err)
	}
	switch {
	case fc.Type != "FeatureCollection":
		return nil, fmt.Errorf("not a GeoJSON FeatureCollection: type %q", fc.Type)
	case len(fc.Features) == 0:
		return nil, errors.New("the FeatureCollection has no features")
	case len(fc.Features) > MaxImportFeatures:
		return nil, fmt.Errorf("the FeatureCollection has %d features: at most %d per import", len(fc.Features), MaxImportFeatures)
	}
	ops := make([]Operation, len(fc.Features))
	var errs []error
	bad := 0
	for i, raw := range fc.Features {
		op, err := decodeFeature(raw)
		if err == nil {
			err = op.Validate()
		}
		if err != nil {
			if bad++; bad <= maxImportErrors {
				errs = append(errs, fmt.Errorf("feature %d: %w", i, err))
			}
			continue
		}
		ops[i] = op
	}
	if bad > maxImportErrors {
		errs = append(errs, fmt.Errorf("and %d more invalid features", bad-maxImportErrors))
	}
	if bad > 0 {
		return nil, fmt.Errorf("%d of %d features are invalid, nothing imported:\n%w", bad, len(fc.Features), errors.Join(errs...))
	}
	return ops, nil
}

func decodeFeature(raw json.RawMessage) (Operation, error) {
	var f feature
	if err := json.Unmarshal(raw, &f); err != nil {
		return Operation{}, fmt.Errorf("not a GeoJSON Feature: %w", err)
	}
	if f.Type != "Feature" {
		return Operation{}, fmt.Errorf("type %q: want Feature", f.Type)
	}
	var p ImportProperties
	if len(f.Properties) > 0 && !bytes.Equal(f.Properties, []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(f.Properties))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return Operation{}, fmt.Errorf("properties: %s", describeJSONError(err))
		}
	}
	op := Operation{Kind: p.Kind, Way: p.Way, From: p.From, To: p.To, Direction: p.Direction, Factor: p.Factor,
		SpeedKPH: p.SpeedKPH, Profiles: p.Profiles, ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil,
		Reason: p.Reason, Reference: p.Reference}
	if f.Geometry == nil {
		return op, nil
	}
	return op, decodeGeometry(*f.Geometry, &op)
}

// describeJSONError names the member a decoding error is about.
func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s: want a JSON %s, got %s", te.Field, te.Type, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// decodeGeometry sets op's Line or Polygon from a LineString or Polygon.
func decodeGeometry(g geometry, op *Operation) error {
	switch g.Type {
	case "LineString":
		var coords [][]float64
		if err := json.Unmarshal(g.Coordinates, &coords); err != nil {
			return fmt.Errorf("geometry: LineString coordinates: %s", describeJSONError(err))
		}
		line, err := positions("geometry.coordinates", coords)
		if err != nil {
			return err
		}
		op.Line = line
		if op.Line == nil {
			op.Line = [][2]float64{}
		}
		return nil
	case "Polygon":
		var rings [][][]float64
		if err := json.Unmarshal(g.Coordinates, &rings); err != nil {
			return fmt.Errorf("geometry: Polygon coordinates: %s", describeJSONError(err))
		}
		op.Polygon = make([][][2]float64, len(rings))
		for r, ring := range rings {
			pts, err := positions(fmt.Sprintf("geometry.coordinates[%d]", r), ring)
			if err != nil {
				return err
			}
			op.Polygon[r] = pts
		}
		return nil
	}
	return fmt.Errorf("geometry: type %q: want LineString or Polygon (or null, with a way in the properties)", g.Type)
}

// positions turns GeoJSON positions ([lon, lat] or [lon, lat, altitude])
// into points.
func positions(field string, coords [][]float64) ([][2]float64, error) {
	if len(coords) > MaxVertices+1 {
		return nil, fmt.Errorf("%s: %d positions: at most %d", field, len(coords), MaxVertices)
	}
	pts := make([][2]float64, len(coords))
	for i, c := range coords {
		if len(c) < 2 || len(c) > 3 {
			return nil, fmt.Errorf("%s[%d]: a position is [lon, lat] or [lon, lat, altitude], got %d numbers", field, i, len(c))
		}
		pts[i] = [2]float64{c[0], c[1]}
	}
	return pts, nil
}

// DecodePolygon reads one polygon from GeoJSON: a Polygon geometry, a
// Feature with one, or a FeatureCollection of exactly one such Feature.
// It checks the structure only; Validate checks the rings.
func DecodePolygon(data []byte) ([][][2]float64, error) {
	var probe struct {
		Type     string            `json:"type"`
		Geometry *geometry         `json:"geometry"`
		Features []json.RawMessage `json:"features"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("not GeoJSON: %w", err)
	}
	var g geometry
	switch probe.Type {
	case "Polygon":
		if err := json.Unmarshal(data, &g); err != nil {
			return nil, fmt.Errorf("not a GeoJSON Polygon: %w", err)
		}
	case "Feature":
		if probe.Geometry == nil {
			return nil, errors.New("the Feature has no geometry")
		}
		g = *probe.Geometry
	case "FeatureCollection":
		if len(probe.Features) != 1 {
			return nil, fmt.Errorf("the FeatureCollection has %d features: give one polygon (or use operations import)", len(probe.Features))
		}
		return DecodePolygon(probe.Features[0])
	default:
		return nil, fmt.Errorf("GeoJSON type %q: want a Polygon, a Feature or a FeatureCollection of one", probe.Type)
	}
	if g.Type != "Polygon" {
		return nil, fmt.Errorf("geometry type %q: want Polygon", g.Type)
	}
	var op Operation
	if err := decodeGeometry(g, &op); err != nil {
		return nil, err
	}
	return op.Polygon, nil
}
