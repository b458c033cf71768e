package roadops

import (
	"encoding/json"
	"time"
)

// exportProperties are ImportProperties plus the members an exported
// operation carries for people and that import ignores (an import always
// makes new drafts).
type exportProperties struct {
	ID         string      `json:"id"`
	State      Review      `json:"state"`
	Kind       Kind        `json:"kind"`
	Way        int64       `json:"way,omitempty"`
	From       *[2]float64 `json:"from,omitempty"`
	To         *[2]float64 `json:"to,omitempty"`
	Direction  Direction   `json:"direction"`
	Factor     float64     `json:"factor,omitempty"`
	SpeedKPH   float64     `json:"speed_kph,omitempty"`
	Profiles   []string    `json:"profiles,omitempty"`
	ValidFrom  *time.Time  `json:"valid_from,omitempty"`
	ValidUntil *time.Time  `json:"valid_until,omitempty"`
	Reason     string      `json:"reason"`
	Reference  string      `json:"reference,omitempty"`
	CreatedAt  time.Time   `json:"created_at"`
	UpdatedAt  time.Time   `json:"updated_at"`
}

type exportFeature struct {
	Type       string           `json:"type"`
	ID         string           `json:"id,omitempty"`
	Geometry   *exportGeometry  `json:"geometry"`
	Properties exportProperties `json:"properties"`
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
		f := exportFeature{Type: "Feature", ID: op.ID, Properties: exportProperties{ID: op.ID, State: op.State,
			Kind: op.Kind, Way: op.Way, From: op.From, To: op.To, Direction: op.Direction, Factor: op.Factor,
			SpeedKPH: op.SpeedKPH, Profiles: op.Profiles, ValidFrom: op.ValidFrom, ValidUntil: op.ValidUntil,
			Reason: op.Reason, Reference: op.Reference, CreatedAt: op.CreatedAt, UpdatedAt: op.UpdatedAt}}
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
