package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/release"
)

func newVerifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify DIR",
		Short: "Check every file size, SHA-256 and section checksum of a release",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := release.Resolve(args[0])
			if err != nil {
				return err
			}
			if err := release.Verify(dir); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", dir)
			return reportDEMCoverage(cmd.OutOrStdout(), dir)
		},
	}
}

// reportDEMCoverage says how much of the roads each DEM reaches, as mapc
// build measured it, and warns below release.MinDEMCoverage.
func reportDEMCoverage(w io.Writer, dir string) error {
	m, err := release.ReadManifest(dir)
	if err != nil {
		return err
	}
	if len(m.DEM) == 0 {
		fmt.Fprintln(w, "elevation: none (built without --dem): elevations answer null, grades are flat")
		return nil
	}
	for _, d := range m.DEM {
		if d.RoadCoverage == nil {
			fmt.Fprintf(w, "elevation: %s (its road coverage was not recorded: built before mapc measured it)\n", filepath.Base(d.Path))
			continue
		}
		fmt.Fprintf(w, "elevation: %s spans %.1f %% of the road nodes\n", filepath.Base(d.Path), 100**d.RoadCoverage)
	}
	if share, ok := m.DEMCoverage(); ok {
		warn := ""
		if share < release.MinDEMCoverage {
			warn = fmt.Sprintf(" (under %.0f %%: the rest answer null elevations and flat grades; add the missing tiles)", 100*release.MinDEMCoverage)
		}
		fmt.Fprintf(w, "elevation: %.1f %% of %d road nodes have a height%s\n", 100*share, m.Stats["dem_road_nodes"], warn)
	}
	return nil
}
