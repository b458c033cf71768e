package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/mapsco/maps/pkg/route"
)

// Landmark is a route the user names, compared on every profile (or on
// Profile alone) whatever the sample: the routes a support desk is asked
// about, the pass into France, the road to the hospital.
type Landmark struct {
	Name    string      `json:"name"`
	Profile string      `json:"profile,omitempty"`
	From    route.Point `json:"from"` // [lon, lat]
	To      route.Point `json:"to"`
}

func (l Landmark) validate() error {
	if l.Name == "" {
		return errors.New("name is empty")
	}
	for _, p := range []struct {
		field string
		at    route.Point
	}{{"from", l.From}, {"to", l.To}} {
		lon, lat := p.at[0], p.at[1]
		if math.IsNaN(lon) || lon < -180 || lon > 180 || math.IsNaN(lat) || lat < -90 || lat > 90 {
			return fmt.Errorf("%q: %s [%g, %g] is not [lon, lat] in degrees", l.Name, p.field, lon, lat)
		}
	}
	return nil
}

// LoadLandmarks reads a landmarks file: a JSON array of
// {"name", "profile" (optional), "from": [lon, lat], "to": [lon, lat]}.
// Unknown fields are refused, so a typo does not silently drop a route.
func LoadLandmarks(path string) ([]Landmark, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("compare: landmarks: %w", err)
	}
	ls, err := decodeLandmarks(b)
	if err != nil {
		return nil, fmt.Errorf("compare: landmarks %s: %w", path, err)
	}
	return ls, nil
}

func decodeLandmarks(b []byte) ([]Landmark, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var ls []Landmark
	if err := dec.Decode(&ls); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the array")
	}
	for i, l := range ls {
		if err := l.validate(); err != nil {
			return nil, fmt.Errorf("/%d: %w", i, err)
		}
	}
	return ls, nil
}
