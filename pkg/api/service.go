package api

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/artifact"
)

// The service endpoints answer operators and load balancers: no key, no
// credits, GET only. They are documented in docs/operations.md and the
// OpenAPI document.
const (
	PathLive    = "/v1/health/live"
	PathReady   = "/v1/health/ready"
	PathStatus  = "/v1/status"
	PathOpenAPI = "/v1/openapi.json"
)

func servicePaths(s *Server) map[string]path {
	get := func(op string, h fasthttp.RequestHandler) path {
		return path{operation: op, method: fasthttp.MethodGet, handler: h}
	}
	return map[string]path{
		PathLive:    get("live", s.live),
		PathReady:   get("ready", s.ready),
		PathStatus:  get("status", s.status),
		PathOpenAPI: get("openapi", serveOpenAPI),
	}
}

// live answers 200 while the process can answer at all.
func (s *Server) live(ctx *fasthttp.RequestCtx) {
	writeJSON(ctx, map[string]string{"status": "live"})
}

// ready answers 200 when a release is mapped, its files are still on disk
// and Config.Ready passes, and a 503 problem naming what is missing
// otherwise.
func (s *Server) ready(ctx *fasthttp.RequestCtx) {
	rel, done := s.cfg.Releases.Acquire()
	v, routers := rel.Manifest.DataVersion, len(rel.Routers)
	onDisk := releaseOnDisk(rel)
	done()
	if routers == 0 {
		s.problem(ctx, KindServiceUnavailable, "release "+v+" serves no profile", nil)
		return
	}
	if onDisk != nil {
		s.problem(ctx, KindServiceUnavailable, "not ready: "+onDisk.Error(), nil)
		return
	}
	if s.cfg.Ready != nil {
		// Not derived from ctx: a fasthttp RequestCtx's Done is the server's
		// shutdown, not this request's, and nil outside a running server.
		c, cancel := context.WithTimeout(context.Background(), ReadyTimeout)
		err := s.cfg.Ready(c)
		cancel()
		if err != nil {
			s.problem(ctx, KindServiceUnavailable, "not ready: "+err.Error(), nil)
			return
		}
	}
	writeJSON(ctx, map[string]string{"status": "ready", "data_version": v})
}

// Status is the body of GET /v1/status.
type Status struct {
	DataVersion   string          `json:"data_version"`
	BuildTime     time.Time       `json:"build_time"`     // of the release
	FormatVersion int             `json:"format_version"` // of the release's artifacts
	Profiles      []ProfileStatus `json:"profiles"`
	StartedAt     time.Time       `json:"started_at"`
	UptimeS       float64         `json:"uptime_s"`
	Build         BuildStatus     `json:"build"`
	DataSources   []DataSource    `json:"data_sources"`
}

// ProfileStatus is a profile's speed model stamp in the served release; it
// converts from release.ProfileInfo field for field.
type ProfileStatus struct {
	Name              string `json:"name"`
	SpeedModelVersion string `json:"speed_model_version"`
	SpeedModelStatus  string `json:"speed_model_status"`
	// ConditionalArcs and VariableShortcuts size what a departure time
	// costs the profile: the arcs whose time a schedule changes, and the
	// hierarchy's shortcuts over them, weighed once per distinct state
	// (docs/conditions.md). Absent for a profile without conditions.
	ConditionalArcs   int `json:"conditional_arcs,omitempty"`
	VariableShortcuts int `json:"variable_shortcuts,omitempty"`
}

// BuildStatus describes the mapd binary.
type BuildStatus struct {
	GoVersion     string `json:"go_version"`
	Module        string `json:"module_version,omitempty"`
	VCSRevision   string `json:"vcs_revision,omitempty"`
	VCSTime       string `json:"vcs_time,omitempty"`
	VCSModified   bool   `json:"vcs_modified"`
	FormatVersion int    `json:"format_version"` // the artifact format this build reads
}

// DataSource names a data set the answers derive from and the notice its
// licence requires.
type DataSource struct {
	Name        string `json:"name"`
	Attribution string `json:"attribution"`
	License     string `json:"license"`
	URL         string `json:"url"`
}

// dataSources are the data sets every release is built from.
var dataSources = []DataSource{
	{Name: "OpenStreetMap", Attribution: "© OpenStreetMap contributors", License: "ODbL-1.0",
		URL: "https://www.openstreetmap.org/copyright"},
	{Name: "SRTM", Attribution: "SRTM data courtesy of NASA/USGS", License: "public domain",
		URL: "https://www.usgs.gov/centers/eros/science/usgs-eros-archive-digital-elevation-shuttle-radar-topography-mission-srtm-1"},
}

// status describes the served release and this process.
func (s *Server) status(ctx *fasthttp.RequestCtx) {
	rel, done := s.cfg.Releases.Acquire()
	m := rel.Manifest // the manifest outlives the mapping
	conditional, variable := map[string]int{}, map[string]int{}
	for name, r := range rel.Routers {
		if r == nil { // a test's release names profiles without routers
			continue
		}
		if g, h := r.Graph(), r.Hierarchy(); g != nil && h != nil {
			conditional[name] = len(g.Cond.Arcs)
			variable[name], _ = h.NumVariable()
		}
	}
	done()
	st := Status{DataVersion: m.DataVersion, BuildTime: m.BuildTime, FormatVersion: m.FormatVersion,
		Profiles: make([]ProfileStatus, 0, len(m.Profiles)), StartedAt: s.cfg.Started.UTC(),
		UptimeS: time.Since(s.cfg.Started).Round(time.Millisecond).Seconds(), Build: buildStatus(),
		DataSources: dataSources}
	for _, p := range m.Profiles {
		st.Profiles = append(st.Profiles, ProfileStatus{Name: p.Name, SpeedModelVersion: p.SpeedModelVersion,
			SpeedModelStatus: p.SpeedModelStatus, ConditionalArcs: conditional[p.Name], VariableShortcuts: variable[p.Name]})
	}
	writeJSON(ctx, st)
}

// buildStatus reads what the Go toolchain stamped into the binary.
func buildStatus() BuildStatus {
	b := BuildStatus{FormatVersion: artifact.FormatVersion}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.GoVersion, b.Module = info.GoVersion, info.Main.Version
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			b.VCSRevision = kv.Value
		case "vcs.time":
			b.VCSTime = kv.Value
		case "vcs.modified":
			b.VCSModified = kv.Value == "true"
		}
	}
	return b
}

// writeJSON answers 200 with v as JSON. Service answers are small and rare,
// so encoding/json's reflection costs nothing that matters here.
func writeJSON(ctx *fasthttp.RequestCtx, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		WriteProblem(ctx, NewProblem(KindInternal, "the answer could not be encoded", requestID(ctx), nil))
		return
	}
	ctx.SetContentType("application/json")
	ctx.SetBody(b)
}
