// Package compile is mapc's pipeline: it reads an OSM extract and the
// profiles, builds the network and one graph per profile, indexes it for
// snapping, and writes a release directory atomically. Each stage lives in
// its own package (osm, profile, graph, snap, artifact, release); this one
// only runs them in order, reports progress, and keeps the output whole.
package compile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/places"
	"github.com/mapsco/maps/pkg/profile"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/snap"
)

// Options configures one build. Zero values are documented per field.
type Options struct {
	OSM string // PBF path; required
	// DEM lists elevation rasters (GeoTIFF, .hgt, .hgt.zip, any GDAL path),
	// best first: where they overlap the first wins. nil builds a release
	// without elevation, whose travel times ignore grade.
	DEM         []string
	ProfilesDir string // profile data files; "" means "profiles"
	DataVersion string // "" means the build date, YYYY-MM-DD (UTC)
	Out         string // releases directory; "" means "releases"
	Log         *slog.Logger
	Progress    Progress // nil means log lines only
	Now         func() time.Time
	// TimeZone is the country's IANA time zone, in which conditional tags'
	// times are read; "" means UTC.
	TimeZone string
}

// Progress shows a long step's advance; the terminal bar and the log-line
// reporter both implement it.
type Progress interface {
	Start(step string, total int64)
	Add(n int64)
	Done()
}

func (o *Options) ensureDefaults() {
	if o.ProfilesDir == "" {
		o.ProfilesDir = "profiles"
	}
	if o.Out == "" {
		o.Out = "releases"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.DataVersion == "" {
		o.DataVersion = o.Now().UTC().Format("2006-01-02")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Progress == nil {
		o.Progress = nopProgress{}
	}
	if o.TimeZone == "" {
		o.TimeZone = "UTC"
	}
}

func (o *Options) validate() error {
	if o.OSM == "" {
		return errors.New("compile: --osm is required")
	}
	if _, err := os.Stat(o.OSM); err != nil {
		return fmt.Errorf("compile: OSM input: %w", err)
	}
	if err := checkDEMPaths(o.DEM); err != nil {
		return err
	}
	if _, err := time.LoadLocation(o.TimeZone); err != nil {
		return fmt.Errorf("compile: --timezone %q: %w", o.TimeZone, err)
	}
	return release.CheckDataVersion(o.DataVersion)
}

// Build compiles a release and returns its manifest and final directory.
func Build(ctx context.Context, o Options) (*release.Manifest, string, error) {
	o.ensureDefaults()
	if err := o.validate(); err != nil {
		return nil, "", err
	}
	start := time.Now()
	profiles, err := profile.LoadDir(o.ProfilesDir)
	if err != nil {
		return nil, "", fmt.Errorf("compile: %w", err)
	}
	stage, err := release.Stage(o.Out, o.DataVersion)
	if err != nil {
		return nil, "", fmt.Errorf("compile: %w", err)
	}
	m, err := build(ctx, o, profiles, stage.Dir)
	if err == nil {
		err = stage.Commit(m)
	}
	if err != nil {
		stage.Abort()
		return nil, "", err
	}
	o.Log.Info("release written", "dir", stage.Final(), "elapsed", time.Since(start).Round(time.Millisecond).String(),
		"peak_rss_mib", PeakRSS()>>20)
	return m, stage.Final(), nil
}

func build(ctx context.Context, o Options, profiles []*profile.Profile, dir string) (*release.Manifest, error) {
	sum, size, err := release.FileSHA256(o.OSM)
	if err != nil {
		return nil, err
	}
	dem, err := buildDEM(ctx, o, dir)
	if err != nil {
		return nil, err
	}
	defer dem.close()
	cond := newConditions()
	in, placeNodes, stats, err := extract(ctx, o, profiles, cond)
	if err != nil {
		return nil, err
	}
	in.Schedules = cond.schedules
	if in.Zone, err = time.LoadLocation(o.TimeZone); err != nil {
		return nil, fmt.Errorf("compile: time zone: %w", err)
	}
	o.Log.Info("conditional tags", "found", cond.report.Found, "parsed", cond.report.Parsed, "not_time", cond.report.NotTime,
		"unparsed", cond.report.Unparsed, "ways", cond.report.Ways, "restrictions", cond.report.Restrictions)
	var terr *terrain
	if dem != nil {
		terr = newTerrain(dem.dem, profiles, o.Log.Info)
		in.SegmentTimes = terr.segmentTimes
		dem.addStats(stats)
	}
	t := time.Now()
	net, graphs, rstats, err := graph.Build(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	stats["restrictions_applied"], stats["restrictions_unsupported"] = int64(rstats.Applied), int64(rstats.Unsupported)
	stats["restrictions_unresolved"], stats["restrictions_via_way"] = int64(rstats.Unresolved), int64(rstats.ViaWays)
	o.Log.Info("graph built", "nodes", net.NumNodes(), "segments", net.NumSegments(),
		"restrictions_applied", rstats.Applied, "restrictions_via_way_applied", rstats.ViaWays,
		"restrictions_unsupported", rstats.Unsupported, "restrictions_unresolved", rstats.Unresolved, "elapsed", since(t))
	if dem != nil {
		if err := dem.checkCoverage(net, stats, o.Log); err != nil {
			return nil, err
		}
	}
	gazetteer := places.Build(placeNodes, places.Segments(net))
	stats["places"] = int64(len(gazetteer))
	o.Log.Info("place index built", "place_nodes", len(placeNodes), "entries", len(gazetteer))
	in = graph.Input{} // let the extracted ways go before the index is built
	debug.FreeOSMemory()
	ix, hierarchies, err := indexAndContract(ctx, o, net, graphs)
	if err != nil {
		return nil, err
	}
	if err := writeGraph(o, dir, net, graphs, hierarchies, ix, terr, gazetteer); err != nil {
		return nil, err
	}
	stats["nodes"], stats["segments"] = int64(net.NumNodes()), int64(net.NumSegments())
	for _, g := range graphs {
		stats["arcs."+g.Profile] = int64(g.NumArcs())
		stats["turns."+g.Profile] = int64(g.NumTurns())
		stats["duplicate_arcs."+g.Profile] = int64(g.NumDuplicates())
	}
	m := &release.Manifest{
		DataVersion: o.DataVersion, BuildTime: o.Now().UTC().Truncate(time.Second), FormatVersion: artifact.FormatVersion,
		Source: release.Source{Path: filepath.Base(o.OSM), SHA256: sum, Bytes: size}, Stats: stats,
		Tool:     map[string]string{"name": "mapc", "go": goVersion()},
		TimeZone: o.TimeZone, Conditionals: &cond.report,
	}
	if dem != nil {
		m.DEM = dem.sources
	}
	for _, p := range profiles {
		m.Profiles = append(m.Profiles, release.ProfileInfo{Name: p.Name, SpeedModelVersion: p.SpeedModelVersion, SpeedModelStatus: p.SpeedModelStatus})
	}
	return m, nil
}

// indexAndContract builds the snapping index while the hierarchies are
// contracted: both only read the graphs, and the index would otherwise
// hold both cores' contractions back for a second.
func indexAndContract(ctx context.Context, o Options, net *graph.Network, graphs []*graph.Graph) (*snap.Index, []*ch.Hierarchy, error) {
	var ix *snap.Index
	var ixErr error
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		t := time.Now()
		if ix, ixErr = snap.Build(net, graphs); ixErr == nil {
			o.Log.Info("snapping index built", "elapsed", since(t))
		}
	}()
	hierarchies, err := contractAll(ctx, o, graphs)
	<-indexed
	if err != nil {
		return nil, nil, err
	}
	if ixErr != nil {
		return nil, nil, fmt.Errorf("compile: %w", ixErr)
	}
	return ix, hierarchies, nil
}

func writeGraph(o Options, dir string, net *graph.Network, graphs []*graph.Graph, hs []*ch.Hierarchy, ix *snap.Index, terr *terrain, gazetteer []places.Entry) error {
	t := time.Now()
	w, err := artifact.NewWriter("graph", o.DataVersion)
	if err != nil {
		return err
	}
	if err := graph.Write(w, net, graphs); err != nil {
		return err
	}
	for i, h := range hs {
		if err := h.Write(w, graphs[i].Profile); err != nil {
			return err
		}
	}
	if err := ix.Write(w); err != nil {
		return err
	}
	if err := places.Write(w, gazetteer); err != nil {
		return err
	}
	if terr != nil && terr.net == net {
		if err := artifact.AddSlice(w, ClimbsSection, terr.climbs); err != nil {
			return err
		}
		if err := terr.samples.Write(w); err != nil {
			return err
		}
	}
	if err := w.WriteFile(filepath.Join(dir, release.GraphFile)); err != nil {
		return err
	}
	o.Log.Info("graph artifact written", "elapsed", since(t))
	return nil
}

func since(t time.Time) string { return time.Since(t).Round(time.Millisecond).String() }

func goVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.GoVersion
	}
	return ""
}
