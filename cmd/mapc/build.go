package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mapsco/maps/pkg/compile"
)

func newBuildCmd(log *slog.Logger) *cobra.Command {
	var o compile.Options
	var cpuProfile, mutexProfile, blockProfile string
	var memoryLimit int64
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Compile an OSM extract into a new release directory OUT/DATA_VERSION",
		Long: `build reads an OSM PBF and the profiles, and writes OUT/DATA_VERSION/ holding graph.map
and manifest.json. With --dem it also writes elevation.map, and travel times follow each
profile's grade model. It writes into a hidden temporary directory and renames it into place only
when complete; it refuses to overwrite an existing release.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Log = log
			if memoryLimit < 0 {
				return fmt.Errorf("mapc build: --memory-limit %d: want 0 (no limit) or a number of MiB", memoryLimit)
			}
			setMemoryLimit(cmd, memoryLimit)
			if term.IsTerminal(int(os.Stderr.Fd())) {
				o.Progress = &barProgress{}
			} else {
				o.Progress = &compile.LogProgress{Log: log, Interval: 5 * time.Second}
			}
			stop, err := startCPUProfile(cpuProfile)
			if err != nil {
				return err
			}
			stopContention := startContentionProfiles(mutexProfile, blockProfile)
			m, dir, err := compile.Build(cmd.Context(), o)
			stop()
			if perr := stopContention(); err == nil && perr != nil {
				err = perr
			}
			if err != nil {
				return err
			}
			cpu := cpuSeconds()
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetEscapeHTML(false) // URLs and names print as typed: & not \u0026
			enc.SetIndent("", "  ")
			return enc.Encode(struct {
				Dir         string  `json:"dir"`
				DataVersion string  `json:"data_version"`
				PeakRSSMiB  int64   `json:"peak_rss_mib"`
				Stats       any     `json:"stats"`
				Conditional any     `json:"conditionals"`
				CPUSeconds  float64 `json:"cpu_s"`
			}{dir, m.DataVersion, compile.PeakRSS() >> 20, m.Stats, m.Conditionals, round3(cpu)})
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.OSM, "osm", "", "OpenStreetMap PBF extract to compile (required)")
	f.StringSliceVar(&o.DEM, "dem", nil, "elevation rasters (GeoTIFF, .hgt, .hgt.zip, any GDAL path), best first; repeatable or comma-separated (default: none, no elevation)")
	f.StringVar(&o.ProfilesDir, "profiles", "profiles", "directory of profile data files")
	f.StringVar(&o.DataVersion, "data-version", "", "release name, 1-32 of [A-Za-z0-9._-] (default: today's date, UTC)")
	f.StringVar(&o.Out, "out", "releases", "directory that holds releases")
	f.StringVar(&o.TimeZone, "timezone", "Europe/Andorra", "the country's IANA time zone, in which conditional restrictions' times are read")
	f.StringVar(&cpuProfile, "cpuprofile", "", "write a pprof CPU profile of the build to this file")
	f.StringVar(&mutexProfile, "mutexprofile", "", "write a pprof profile of the build's mutex contention to this file")
	f.StringVar(&blockProfile, "blockprofile", "", "write a pprof profile of where the build's goroutines blocked (channels, locks, waits) to this file")
	f.Int64Var(&memoryLimit, "memory-limit", defaultMemoryLimitMiB(), "soft limit on the build's memory in MiB, a guard against running out, by default 3/4 of the machine's (or cgroup's) memory: the garbage collector works harder near it (0: none; GOMEMLIMIT, when set, wins over the default). Below it the heap stays near 1.5 times the live data (GOGC 50, unless GOGC is set)")
	cmd.MarkFlagRequired("osm")
	return cmd
}

// startCPUProfile starts a CPU profile into path, if not empty, and
// returns what stops it.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("mapc build: --cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("mapc build: --cpuprofile %s: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// startContentionProfiles starts recording mutex contention and blocking
// for the paths that are not empty, and returns what writes them.
func startContentionProfiles(mutexPath, blockPath string) (stop func() error) {
	if mutexPath != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if blockPath != "" {
		runtime.SetBlockProfileRate(int(time.Microsecond)) // a sample per µs blocked
	}
	return func() error {
		for _, p := range []struct{ name, path string }{{"mutex", mutexPath}, {"block", blockPath}} {
			if p.path == "" {
				continue
			}
			if err := writeProfile(p.name, p.path); err != nil {
				return fmt.Errorf("mapc build: --%sprofile %s: %w", p.name, p.path, err)
			}
		}
		return nil
	}
}

func writeProfile(name, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// barProgress draws a spinner with a count on a terminal.
type barProgress struct{ bar *progressbar.ProgressBar }

func (p *barProgress) Start(step string, total int64) {
	p.bar = progressbar.NewOptions64(-1, progressbar.OptionSetDescription(step),
		progressbar.OptionSetWriter(os.Stderr), progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond))
}

func (p *barProgress) Add(n int64) { p.bar.Add64(n) }

func (p *barProgress) Done() {
	p.bar.Finish()
	os.Stderr.WriteString("\n")
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
