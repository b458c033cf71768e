package roadops

import "encoding/json"

type exportFeature struct {
	Type     string          `json:"type"`
	ID       string          `json:"id,omitempty"`
	Geometry *exportGeometry `json:"geometry"`
	// Properties are the operation itself, its line or polygon moved to
	// the geometry.
	Properties Operation `json:"properties"`
}

type exportGeometry struct {
	Type        string `json:"type"`
	Coordinates any    `json:"coordinates"`
}

type exportCollection struct {
	Type     string          `json:"type"`
	Features []exportFeature `json:"features"`
}

// EncodeFeatureCollection writes operations as the GeoJSON FeatureCollection
// DecodeFeatureCollection reads: a line is a LineString, a polygon a
// Polygon, and a way operation has no geometry ("geometry": null; its
// road's shape is the release's). Properties also carry id, state,
// created_at and updated_at, which an import ignores.
func EncodeFeatureCollection(ops []Operation) ([]byte, error) {
	fc := exportCollection{Type: "FeatureCollection", Features: make([]exportFeature, len(ops))}
	for i, op := range ops {
		props := op.clone()
		props.Line, props.Polygon = nil, nil
		f := exportFeature{Type: "Feature", ID: op.ID, Properties: props}
		switch {
		case op.Line != nil:
			f.Geometry = &exportGeometry{Type: "LineString", Coordinates: op.Line}
		case op.Polygon != nil:
			f.Geometry = &exportGeometry{Type: "Polygon", Coordinates: op.Polygon}
		}
		fc.Features[i] = f
	}
	return json.Marshal(fc)
}
