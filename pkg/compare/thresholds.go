package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
)

// Limit is one threshold: a number, or Off (JSON null) to skip the check.
type Limit struct {
	Value float64
	Off   bool
}

// MarshalJSON writes the number, or null when Off.
func (l Limit) MarshalJSON() ([]byte, error) {
	if l.Off {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, l.Value, 'g', -1, 64), nil
}

// UnmarshalJSON reads what MarshalJSON writes, so that a JSON report can
// be read back.
func (l *Limit) UnmarshalJSON(b []byte) error { return l.decode(b) }

func on(v float64) Limit { return Limit{Value: v} }

// Thresholds are the differences that refuse a new release. Each applies to
// every compared profile; "any" means a single route, cell, origin or
// point is enough. A new release also fails when it lacks a profile the
// old one has. The defaults (DefaultThresholds) are in brackets.
type Thresholds struct {
	// Share of a profile's sampled pairs routable in old but not in new,
	// and of landmarks [0: any route lost fails].
	NewlyUnroutable Limit `json:"newly_unroutable_fraction"`
	// Share of a profile's sampled pairs routable in new only [0.01].
	NewlyRoutable Limit `json:"newly_routable_fraction"`
	// Any route's new/old time (pairs and landmarks) above [1.5] or
	// below [0.67].
	DurationRatioMax Limit `json:"duration_ratio_max"`
	DurationRatioMin Limit `json:"duration_ratio_min"`
	// A profile's 95th percentile of new/old time above [1.05], its 5th
	// percentile below [0.95]; the same for length.
	DurationRatioP95 Limit `json:"duration_ratio_p95"`
	DurationRatioP5  Limit `json:"duration_ratio_p5"`
	DistanceRatioP95 Limit `json:"distance_ratio_p95"`
	DistanceRatioP5  Limit `json:"distance_ratio_p5"`
	// Share of a profile's pairs routable in both whose time or length
	// changed by more than 1 % [0.1].
	ChangedFraction Limit `json:"changed_fraction"`
	// A profile's 99th percentile of how far drawn road points' snaps moved,
	// in metres [10]: more than 1 % of the old roads gone or moved.
	SnapMovedP99M Limit `json:"snap_moved_p99_m"`
	// Share of a profile's matrix cells that became null or changed by
	// more than 1 % [0.1].
	MatrixChangedFraction Limit `json:"matrix_changed_fraction"`
	// Any isochrone's new/old area above [1.25] or below [0.8], or an
	// origin with an isochrone on one release only.
	IsochroneAreaRatioMax Limit `json:"isochrone_area_ratio_max"`
	IsochroneAreaRatioMin Limit `json:"isochrone_area_ratio_min"`
	// Any sample point's height differing by more metres [1], or losing
	// its height.
	ElevationDiffM Limit `json:"elevation_diff_max_m"`
	// Any size count of the manifests (nodes, segments, routable ways, arcs
	// and turns per profile) changing by a larger fraction either way [0.02].
	CountChangeFraction Limit `json:"count_change_fraction"`
}

// DefaultThresholds are strict: one road removed from a national network
// or one one-way reversed is enough to trip them, since such an edit is
// exactly what a vandal or a bad import does. Loosen them in a file for a
// country whose nightly edits are many.
func DefaultThresholds() Thresholds {
	return Thresholds{
		NewlyUnroutable: on(0), NewlyRoutable: on(0.01),
		DurationRatioMax: on(1.5), DurationRatioMin: on(0.67),
		DurationRatioP95: on(1.05), DurationRatioP5: on(0.95),
		DistanceRatioP95: on(1.05), DistanceRatioP5: on(0.95),
		ChangedFraction: on(0.1), SnapMovedP99M: on(10), MatrixChangedFraction: on(0.1),
		IsochroneAreaRatioMax: on(1.25), IsochroneAreaRatioMin: on(0.8),
		ElevationDiffM: on(1), CountChangeFraction: on(0.02),
	}
}

// fields lists the thresholds by their JSON names, for decoding.
func (t *Thresholds) fields() map[string]*Limit {
	return map[string]*Limit{
		"newly_unroutable_fraction": &t.NewlyUnroutable, "newly_routable_fraction": &t.NewlyRoutable,
		"duration_ratio_max": &t.DurationRatioMax, "duration_ratio_min": &t.DurationRatioMin,
		"duration_ratio_p95": &t.DurationRatioP95, "duration_ratio_p5": &t.DurationRatioP5,
		"distance_ratio_p95": &t.DistanceRatioP95, "distance_ratio_p5": &t.DistanceRatioP5,
		"changed_fraction": &t.ChangedFraction, "snap_moved_p99_m": &t.SnapMovedP99M,
		"matrix_changed_fraction":  &t.MatrixChangedFraction,
		"isochrone_area_ratio_max": &t.IsochroneAreaRatioMax, "isochrone_area_ratio_min": &t.IsochroneAreaRatioMin,
		"elevation_diff_max_m": &t.ElevationDiffM, "count_change_fraction": &t.CountChangeFraction,
	}
}

// LoadThresholds reads a thresholds file: a JSON object whose keys are the
// json names of Thresholds' fields, each a number ≥ 0 or null (skip the
// check). Keys left out keep their defaults; unknown keys are refused, so a
// misspelt threshold is not silently the default.
func LoadThresholds(path string) (Thresholds, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Thresholds{}, fmt.Errorf("compare: thresholds: %w", err)
	}
	t, err := DecodeThresholds(b)
	if err != nil {
		return Thresholds{}, fmt.Errorf("compare: thresholds %s: %w", path, err)
	}
	return t, nil
}

// DecodeThresholds parses a thresholds document over the defaults. Errors
// name the offending member by JSON pointer.
func DecodeThresholds(b []byte) (Thresholds, error) {
	t := DefaultThresholds()
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return t, fmt.Errorf("want a JSON object of thresholds: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return t, fmt.Errorf("data after the object")
	}
	fields := t.fields()
	for name, v := range raw {
		l, ok := fields[name]
		if !ok {
			return t, fmt.Errorf("/%s: unknown threshold (known: %v)", name, sortedNames(fields))
		}
		if err := l.decode(v); err != nil {
			return t, fmt.Errorf("/%s: %w", name, err)
		}
	}
	return t, nil
}

func (l *Limit) decode(v json.RawMessage) error {
	if string(bytes.TrimSpace(v)) == "null" {
		*l = Limit{Off: true}
		return nil
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		return fmt.Errorf("want a number or null, got %s", v)
	}
	if f < 0 || math.IsInf(f, 0) {
		return fmt.Errorf("%g: want a number ≥ 0", f)
	}
	*l = Limit{Value: f}
	return nil
}

func sortedNames(m map[string]*Limit) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
