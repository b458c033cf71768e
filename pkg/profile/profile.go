package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxFileBytes bounds what Load reads: a profile is a few kilobytes, and a runaway file should fail, not eat memory.
const maxFileBytes = 1 << 20

// Names returns the six profile names in canonical order: moto, car, truck, bicycle, pedestrian, pedestrian_loaded.
// The slice is new on every call, so callers may keep or modify it.
func Names() []string {
	return []string{"moto", "car", "truck", "bicycle", "pedestrian", "pedestrian_loaded"}
}

// Profile is one compiled mode of travel. The exported fields come straight from the file; the evaluation rules
// are precompiled into unexported lookup tables so that Way, Barrier and Restriction do not allocate.
type Profile struct {
	Name              string
	Doc               string
	SpeedModelVersion string
	SpeedModelStatus  string // "provisional" or "calibrated"
	// MaxSpeedKmh caps every speed the profile gives (the vehicle's own top speed).
	MaxSpeedKmh float64
	// Vehicle is the size checked against maxheight/maxwidth/maxlength/maxweight; zero fields are not checked.
	Vehicle VehicleSize
	// Grade is the optional terrain speed model, applied by the compiler when it has a DEM; nil for flat speeds.
	Grade *Grade
	// Turns prices turns and U-turns (see Turns).
	Turns Turns

	access       accessRules
	highways     map[string]highwayRule
	push         pushRules
	oneway       onewayRules
	factors      []tagFactors
	deny         []tagSet
	maxspeed     maxspeedRules
	barriers     barrierRules
	restrictions restrictionRules
	ferryKmh     float64 // 0: ferries are not usable
}

// VehicleSize is the vehicle a profile stands for, in metres and tonnes.
type VehicleSize struct {
	HeightM, WidthM, LengthM, WeightT float64
}

// Way is the result of evaluating one OSM way for one profile. Forward is travel along the way's node order.
type Way struct {
	Forward, Backward bool    // may travel along / against the way's node order
	SpeedForward      float64 // km/h, > 0 exactly when Forward
	SpeedBackward     float64 // km/h, > 0 exactly when Backward
	// Destination: the deciding access value's verdict is "destination"
	// (access=destination, delivery, customers for motor vehicles): the way
	// may be used to reach a place on it or beyond it, not to pass through.
	// pkg/graph keeps through-traffic out (docs/conditions.md).
	Destination bool
}

// Load reads, validates and compiles one profile file. The profile's name must be one of Names().
func Load(path string) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("profile: open %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("profile: read %s: %w", path, err)
	}
	if len(data) > maxFileBytes {
		return nil, &FieldError{File: path, Field: "(file)", Msg: fmt.Sprintf("larger than %d bytes", maxFileBytes)}
	}
	return Parse(data, path)
}

// Parse decodes and validates a profile from JSON bytes. source names the input in error messages.
func Parse(data []byte, source string) (*Profile, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var fp fileProfile
	if err := dec.Decode(&fp); err != nil {
		return nil, decodeError(source, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &FieldError{File: source, Field: "(file)", Msg: "trailing data after the profile object"}
	}
	return compile(&fp, source)
}

// decodeError turns encoding/json errors into FieldErrors where the field is known, so that a wrong type or an
// unknown field is reported with its path like every other rule.
func decodeError(source string, err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return &FieldError{File: source, Field: typeErr.Field,
			Msg: fmt.Sprintf("wrong type: JSON %s where %s is expected", typeErr.Value, typeErr.Type)}
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return &FieldError{File: source, Field: "(file)",
			Msg: fmt.Sprintf("malformed JSON at byte %d: %v", syntaxErr.Offset, err)}
	}
	// Unknown fields come back as a plain error, `json: unknown field "x"`, without the path.
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &FieldError{File: source, Field: strings.Trim(name, `"`),
			Msg: "unknown field: not part of the profile format (typo? see profiles/README.md)"}
	}
	return &FieldError{File: source, Field: "(file)", Msg: fmt.Sprintf("malformed JSON: %v", err)}
}

// LoadDir loads the profiles in dir, in canonical order: <name>.json for
// each name in Names() that is there, so a directory holding only car.json
// builds a release with car alone. It fails when dir holds none of them, on
// a .json file that is not one of them (a typo would otherwise drop a
// profile silently), and on the first invalid file, naming the file (and,
// for rule violations, the field). Other files (README.md) are ignored.
func LoadDir(dir string) ([]*Profile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("profiles: %w", err)
	}
	for _, e := range entries {
		base, isJSON := strings.CutSuffix(e.Name(), ".json")
		if isJSON && !slices.Contains(Names(), base) {
			return nil, fmt.Errorf("profiles: %s is not a profile: want files named %s.json", filepath.Join(dir, e.Name()),
				strings.Join(Names(), ".json, "))
		}
	}
	var out []*Profile
	for _, name := range Names() {
		path := filepath.Join(dir, name+".json")
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		p, err := Load(path)
		if err != nil {
			return nil, err
		}
		if p.Name != name {
			return nil, &FieldError{File: path, Field: "name", Msg: fmt.Sprintf("is %q, the file name says %q", p.Name, name)}
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("profiles: %s holds none of %s.json: %w", dir, strings.Join(Names(), ".json, "), fs.ErrNotExist)
	}
	return out, nil
}

// TopSpeed returns the highest speed (km/h) any way can get under this profile: an upper bound for A*-style
// heuristics. Ridden classes are capped by max_speed_kmh; pushing and ferry speeds are not vehicle speeds.
func (p *Profile) TopSpeed() float64 {
	var ride float64
	for _, h := range p.highways {
		ride = max(ride, h.speedKmh)
	}
	top := max(min(ride, p.MaxSpeedKmh), p.ferryKmh, p.push.defaultKmh)
	for _, s := range p.push.highways {
		top = max(top, s)
	}
	return top
}
