package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mapsco/maps/pkg/compare"
)

// exitThresholds is mapc's exit status when a comparison crosses a
// threshold (1 is any other failure), so that a pipeline can tell "the
// new release is refused" from "the comparison could not run".
const exitThresholds = 2

// exitError carries a process exit status up to main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// gateFlags are the comparison's flags, shared by `mapc compare` and
// `mapc release use --gate-with`.
type gateFlags struct {
	o                         compare.Options
	thresholds, jsonOut, html string
	landmarks, departure      string
	names                     []string // the flags register added
}

// changed returns the first of the gate's flags given on cmd's command
// line, "" when none was.
func (g *gateFlags) changed(cmd *cobra.Command) string {
	for _, n := range g.names {
		if cmd.Flags().Changed(n) {
			return n
		}
	}
	return ""
}

func (g *gateFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	before := map[string]bool{}
	f.VisitAll(func(fl *pflag.Flag) { before[fl.Name] = true })
	defer f.VisitAll(func(fl *pflag.Flag) {
		if !before[fl.Name] {
			g.names = append(g.names, fl.Name)
		}
	})
	f.IntVar(&g.o.Pairs, "sample", 1000, "routes per profile, between consecutive points drawn on roads present in both releases")
	f.Uint64Var(&g.o.Seed, "seed", 1, "seed of the sample (the same seed and old release give the same sample)")
	f.StringVar(&g.thresholds, "thresholds", "", "thresholds file (JSON, docs/compare.md); default: the built-in defaults")
	f.StringVar(&g.jsonOut, "json", "", "write the JSON report to FILE (- for standard output; the summary then goes to standard error)")
	f.StringVar(&g.html, "html", "", "write the HTML report, with a map of the worst changes, to FILE")
	f.StringVar(&g.landmarks, "landmarks", "", "landmark routes file: JSON [{\"name\", \"profile\" (optional), \"from\": [lon, lat], \"to\": [lon, lat]}]")
	f.IntVar(&g.o.MatrixPoints, "matrix", 20, "points per profile in the compared matrix (0: none)")
	f.IntVar(&g.o.Isochrones, "isochrones", 50, "isochrone origins over all profiles (0: none)")
	f.Float64Var(&g.o.IsochroneMinutes, "isochrone-minutes", 10, "isochrone budget in minutes")
	f.IntVar(&g.o.ElevationPoints, "elevation-points", 200, "points whose DEM height is compared (0: none)")
	f.StringVar(&g.departure, "departure", "", "departure time of every route, RFC 3339, for time-conditioned roads (default: now)")
	f.IntVar(&g.o.Workers, "workers", 0, "goroutines (default: GOMAXPROCS)")
}

// run compares, writes the summary and the reports, and returns an
// exitError when a threshold is crossed.
func (g *gateFlags) run(ctx context.Context, oldDir, newDir string, stdout io.Writer) error {
	if g.o.Pairs < 1 || g.o.IsochroneMinutes <= 0 {
		return fmt.Errorf("--sample %d, --isochrone-minutes %g: want at least 1 pair and a positive budget", g.o.Pairs, g.o.IsochroneMinutes)
	}
	for _, n := range []*int{&g.o.MatrixPoints, &g.o.Isochrones, &g.o.ElevationPoints} {
		if *n == 0 {
			*n = -1 // compare.Options: 0 is the default, negative is none
		}
	}
	th := compare.DefaultThresholds()
	var err error
	if g.thresholds != "" {
		if th, err = compare.LoadThresholds(g.thresholds); err != nil {
			return err
		}
	}
	if g.landmarks != "" {
		if g.o.Landmarks, err = compare.LoadLandmarks(g.landmarks); err != nil {
			return err
		}
	}
	if g.departure != "" {
		if g.o.Departure, err = time.Parse(time.RFC3339, g.departure); err != nil {
			return fmt.Errorf("--departure %q: want RFC 3339, e.g. 2026-11-25T08:00:00+01:00", g.departure)
		}
	}
	g.o.Map = g.html != ""
	rep, err := compare.Run(ctx, oldDir, newDir, g.o)
	if err != nil {
		return err
	}
	rep.Check(th)
	summary := stdout
	if g.jsonOut == "-" {
		summary = os.Stderr
	}
	if err := g.write(rep, stdout); err != nil {
		return err
	}
	if err := compare.WriteSummary(summary, rep); err != nil {
		return err
	}
	if !rep.Passed() {
		return &exitError{exitThresholds, fmt.Errorf("%s refused: %d thresholds crossed against %s", rep.New.DataVersion, len(rep.Violations), rep.Old.DataVersion)}
	}
	return nil
}

// write writes the JSON and HTML reports asked for.
func (g *gateFlags) write(rep *compare.Report, stdout io.Writer) error {
	if g.jsonOut == "-" {
		if err := compare.WriteJSON(stdout, rep); err != nil {
			return err
		}
	} else if g.jsonOut != "" {
		if err := writeFile(g.jsonOut, func(w io.Writer) error { return compare.WriteJSON(w, rep) }); err != nil {
			return err
		}
	}
	if g.html != "" {
		return writeFile(g.html, func(w io.Writer) error { return compare.WriteHTML(w, rep) })
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

func newCompareCmd() *cobra.Command {
	var g gateFlags
	cmd := &cobra.Command{
		Use:   "compare OLD NEW",
		Short: "Compare two releases on a seeded sample of routes; exit 2 when a threshold is crossed",
		Long: `compare opens both releases (each a release directory, or a directory of releases whose
current pointer is followed) and asks both the same questions in process: routes between points
drawn on roads present in both, how far snapped points moved, a small matrix, isochrones, DEM
heights, and the manifests' counts. It prints a summary, writes --json and --html reports, and
exits 0 when no threshold is crossed, 2 when one is (the new release should not be used), and
1 when the comparison could not run.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.run(cmd.Context(), args[0], args[1], cmd.OutOrStdout())
		},
	}
	g.register(cmd)
	return cmd
}

// exitCode is the process status for err: an exitError's, else 1.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}
