package main

import (
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/compile"
	"github.com/mapsco/maps/pkg/synth"
)

// newSynthCmd is `mapc synth`: tile real extracts into a synthetic country
// for scale benchmarks (see package synth).
func newSynthCmd() *cobra.Command {
	var (
		o       synth.Options
		sources string
		dataDir string
	)
	cmd := &cobra.Command{
		Use:   "synth",
		Short: "Tile real extracts into a synthetic country PBF of any size",
		Long: `synth copies the road network of real extracts side by side on a grid of 1° cells, with fresh ids
per copy, joins neighbouring copies with two-way trunk roads, and writes an OSM PBF that
"mapc build" compiles. Give --tiles N, or --nodes M to pick the fewest tiles reaching about M
routable nodes. The same arguments always give a byte-identical file.`,
		Example: `  mapc synth --nodes 3000000 --out /tmp/country-3m.osm.pbf
  mapc synth --tiles 4 --sources ../shared/data/monaco.osm.pbf --out /tmp/monaco4.osm.pbf`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (o.Tiles > 0) == (o.Nodes > 0) {
				return errors.New("synth: give exactly one of --tiles and --nodes")
			}
			var err error
			if sources != "" {
				o.Sources = strings.Split(sources, ",")
			} else if o.Sources, err = synth.DefaultSources(dataDir); err != nil {
				return err
			}
			o.Log = slog.New(slog.NewTextHandler(os.Stderr, nil))
			s, err := synth.Generate(cmd.Context(), o)
			if err != nil {
				return err
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetEscapeHTML(false) // URLs and names print as typed: & not \u0026
			enc.SetIndent("", "  ")
			return enc.Encode(struct {
				*synth.Summary
				ElapsedS   float64 `json:"elapsed_s"`
				PeakRSSMiB int64   `json:"peak_rss_mib"`
			}{s, s.Elapsed.Round(time.Millisecond).Seconds(), compile.PeakRSS() >> 20})
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Tiles, "tiles", 0, "number of tiles (copies of the sources, in turn)")
	f.Int64Var(&o.Nodes, "nodes", 0, "target routable nodes, instead of --tiles")
	f.StringVar(&sources, "sources", "", "comma-separated PBF extracts to tile (default: andorra, liechtenstein, monaco, cities/* under --data-dir)")
	f.StringVar(&dataDir, "data-dir", "../shared/data", "where the default sources are")
	f.StringVar(&o.Out, "out", "", "output PBF path (required)")
	cmd.MarkFlagRequired("out")
	return cmd
}
