package compare

import (
	"encoding/json"
	"io"
	"time"
)

// Report is everything Run found. Its JSON form is the --json report; its
// fields are plain data that outlive both releases.
type Report struct {
	Old     ReleaseInfo   `json:"old"`
	New     ReleaseInfo   `json:"new"`
	Options ReportOptions `json:"options"`
	// Profiles compared (in both releases); Missing in new, Added in new.
	Profiles   []string          `json:"profiles"`
	Missing    []string          `json:"missing_profiles,omitempty"`
	Added      []string          `json:"added_profiles,omitempty"`
	Routes     []RouteSummary    `json:"routes"`
	Landmarks  []PairChange      `json:"landmarks,omitempty"`
	Snaps      []SnapSummary     `json:"snaps"`
	Matrices   []MatrixSummary   `json:"matrices,omitempty"`
	Isochrones *IsochroneSummary `json:"isochrones,omitempty"`
	Elevation  *ElevationSummary `json:"elevation,omitempty"`
	Counts     []CountRow        `json:"counts"`
	Models     []ModelRow        `json:"speed_models"`
	ElapsedS   float64           `json:"elapsed_s"`
	// Violations are the thresholds crossed (see Check); empty means the
	// new release may be used.
	Violations []Violation `json:"violations"`
	Thresholds *Thresholds `json:"thresholds,omitempty"`

	picture *picture // the HTML report's map, when Options.Map
}

// ReleaseInfo names a compared release.
type ReleaseInfo struct {
	Dir         string    `json:"dir"`
	DataVersion string    `json:"data_version"`
	BuildTime   time.Time `json:"build_time"`
	Source      string    `json:"source_sha256"`
}

// ReportOptions are the options the sample was drawn with, so that a
// report can be reproduced.
type ReportOptions struct {
	Pairs            int       `json:"pairs"`
	Seed             uint64    `json:"seed"`
	MatrixPoints     int       `json:"matrix_points"`
	Isochrones       int       `json:"isochrones"`
	IsochroneMinutes float64   `json:"isochrone_minutes"`
	ElevationPoints  int       `json:"elevation_points"`
	PresenceM        float64   `json:"presence_m"`
	Departure        time.Time `json:"departure"`
}

// Passed reports whether no threshold was crossed.
func (r *Report) Passed() bool { return len(r.Violations) == 0 }

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // way names print as written: & not \u0026
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
