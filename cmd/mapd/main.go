// Command mapd serves a compiled release over the /v1 HTTP API, and holds the
// operator's commands: verify a release, manage accounts and credits.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // conditional restrictions are read in the country's zone, on any host

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/strictcli"
	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	root := &cobra.Command{
		Use:           "mapd",
		Short:         "Serve routing, matrices, isochrones and elevation from a compiled release",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newServeCmd(log), newVerifyCmd())
	root.AddCommand(newAdminCommands()...)
	root.AddCommand(newUsageCommand())
	root.AddCommand(newOperationsCommand())
	strictcli.Apply(root)
	if err := root.ExecuteContext(ctx); err != nil {
		// An argument may have been a secret key typed in the wrong place:
		// errors show keys by their last four characters only.
		fmt.Fprintln(os.Stderr, "mapd:", ledger.RedactKeys(err.Error()))
		os.Exit(1)
	}
}
