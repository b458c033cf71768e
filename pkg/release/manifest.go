// Package release is a compiled data release on disk: a directory named
// after its data_version holding the artifact files and a manifest.json that
// lists them with sizes and checksums. It writes releases atomically,
// verifies them, and lists, prunes and points at them in a directory of
// releases. It links no routing code, so mapc stays small; opening a release
// to answer requests, holding and swapping it are package serving (mapd).
package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// ManifestFile is the manifest's file name inside a release directory.
const ManifestFile = "manifest.json"

// GraphFile is the artifact holding the network, the profile graphs and the
// snapping index.
const GraphFile = "graph.map"

// ElevationFile is the artifact holding the release's DEM (pkg/elevation's
// sections). mapc writes it only when built with --dem; a release without it
// has no elevation: /v1/elevation answers null and routes carry no profile.
const ElevationFile = "elevation.map"

// Manifest describes a release. It is written last, so a directory with a
// manifest is complete.
type Manifest struct {
	DataVersion   string            `json:"data_version"`
	BuildTime     time.Time         `json:"build_time"`
	FormatVersion int               `json:"format_version"`
	Source        Source            `json:"source"`
	DEM           []Source          `json:"dem,omitempty"` // elevation rasters, in the order given to mapc
	Profiles      []ProfileInfo     `json:"profiles"`
	Files         []FileInfo        `json:"files"`
	Stats         map[string]int64  `json:"stats,omitempty"`
	Tool          map[string]string `json:"tool,omitempty"`
	// TimeZone is where time conditions are read (IANA name).
	TimeZone     string             `json:"time_zone,omitempty"`
	Conditionals *ConditionalReport `json:"conditionals,omitempty"`
}

// ConditionalReport counts the conditional tags (key:conditional, and the
// legacy day_on/hour_on of turn restrictions) the compiler met on routable
// ways and restriction relations, and what became of them.
type ConditionalReport struct {
	Found        map[string]int64 `json:"found"`          // per tag key
	Parsed       int64            `json:"parsed"`         // time conditions understood
	NotTime      int64            `json:"not_time"`       // conditions on something else (destination, wet, weight)
	Unparsed     int64            `json:"unparsed"`       // time conditions outside the supported subset
	Ignored      int64            `json:"ignored"`        // keys no profile reads (maxweight:conditional, ...)
	TooManyRules int64            `json:"too_many_rules"` // elements with more rules than are modelled
	Ways         int64            `json:"ways"`           // ways whose use changes with time for some profile
	Restrictions int64            `json:"restrictions"`   // time-limited turn restrictions kept
	Examples     []string         `json:"examples,omitempty"`
}

// MinDEMCoverage is the share of a release's road nodes that should have a
// height: under it mapc build warns and mapd verify says so
// (docs/elevation.md). Below 1 because an extract's roads may run a little
// past the country's tiles (a border crossing, a tile left out on purpose).
const MinDEMCoverage = 0.99

// DEMCoverage reads the manifest's share of road nodes with a height, and
// whether it was recorded (releases built before mapc measured it lack it).
func (m *Manifest) DEMCoverage() (share float64, ok bool) {
	n, covered := m.Stats["dem_road_nodes"], m.Stats["dem_road_nodes_covered"]
	if len(m.DEM) == 0 || n == 0 {
		return 0, false
	}
	return float64(covered) / float64(n), true
}

// Source names an input file by content.
type Source struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
	// RoadCoverage is, for a DEM, the share of the release's road nodes
	// within its extent (0 to 1); nil for the OSM source and releases
	// built before it was recorded.
	RoadCoverage *float64 `json:"road_coverage,omitempty"`
}

// ProfileInfo is a profile's speed model stamp.
type ProfileInfo struct {
	Name              string `json:"name"`
	SpeedModelVersion string `json:"speed_model_version"`
	SpeedModelStatus  string `json:"speed_model_status"`
}

// FileInfo is one artifact file.
type FileInfo struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

var validVersion = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)

// CheckDataVersion accepts 1 to 32 characters of letters, digits, '.', '_'
// and '-', starting with a letter or digit: the value names a directory and
// appears in every response, so nothing that needs escaping is allowed.
func CheckDataVersion(v string) error {
	if !validVersion.MatchString(v) {
		return fmt.Errorf("data version %q: want 1-32 characters of A-Z a-z 0-9 . _ - starting with a letter or digit", v)
	}
	return nil
}

// ReadManifest reads and checks dir's manifest.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("release: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("release: %s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if err := CheckDataVersion(m.DataVersion); err != nil {
		return nil, fmt.Errorf("release: %s: %w", dir, err)
	}
	return &m, nil
}

// Profile returns the named profile's stamp, or nil.
func (m *Manifest) Profile(name string) *ProfileInfo {
	for i := range m.Profiles {
		if m.Profiles[i].Name == name {
			return &m.Profiles[i]
		}
	}
	return nil
}

// HasFile reports whether the manifest lists a file of that name.
func (m *Manifest) HasFile(name string) bool {
	for _, f := range m.Files {
		if f.Name == name {
			return true
		}
	}
	return false
}
