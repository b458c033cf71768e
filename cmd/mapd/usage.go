package main

// mapd usage show: support's look-up of what a request was charged, by the
// request_id the client got in its answer (or the instance of a problem).

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/ledger"
)

// newUsageCommand returns `mapd usage show REQUEST_ID...`.
func newUsageCommand(log *slog.Logger) *cobra.Command {
	return ledgerGroup(log, "usage", "Look up the usage records of charged requests", usageShowCmd)
}

func usageShowCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "show REQUEST_ID...",
		Short: "Print the usage record of each request id (what it was charged); exit 1 if any has none",
		Long: `Print the usage record (request_id, account_id, key_id, operation, credits, at) of each
request id, one JSON object per id, in the order given. A request that was not charged (it
failed, was refused, or never reached the ledger) has no record: the command still prints
the records it found, then names the ids without one and exits 1.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withLedger(cmd, lf, func(ctx context.Context, s ledger.Store) error {
				var missing []string
				for _, id := range args {
					u, err := s.LookupUsage(ctx, id)
					if errors.Is(err, ledger.ErrUnknownRequest) {
						missing = append(missing, id)
						continue
					}
					if err != nil {
						return err
					}
					if err := printJSON(cmd, u); err != nil {
						return err
					}
				}
				if len(missing) > 0 {
					return fmt.Errorf("usage show: no usage record for %d of %d request ids: %s",
						len(missing), len(args), strings.Join(missing, " "))
				}
				return nil
			})
		},
	}
}
