// Command mapc compiles a country's map into a release of memory-mapped
// artifacts for mapd: `mapc build --osm FILE --data-version V --out DIR`.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // conditional restrictions are read in the country's zone, on any host

	"github.com/mapsco/maps/pkg/strictcli"
	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := &cobra.Command{
		Use:           "mapc",
		Short:         "Compile OpenStreetMap data into routing releases",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	root.AddCommand(newBuildCmd(log))
	root.AddCommand(newSynthCmd())
	root.AddCommand(newReleaseCmd())
	root.AddCommand(newCompareCmd())
	strictcli.Apply(root)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "mapc:", err)
		os.Exit(exitCode(err))
	}
}
