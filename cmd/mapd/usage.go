package main

// mapd usage: support's look-up of what a request was charged, by the
// request_id the client got in its answer (or the instance of a problem),
// and the per-day export an invoice is made from.

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/ledger"
)

// newUsageCommand returns `mapd usage show|export`.
func newUsageCommand() *cobra.Command {
	return ledgerGroup("usage", "Look up charged requests; export usage per day for invoices", usageShowCmd, usageExportCmd)
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
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
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

// exportOptions are usage export's flags.
type exportOptions struct {
	account  string
	from, to string // YYYY-MM-DD
	format   string // json or csv
}

func usageExportCmd(lf *ledgerFlag) *cobra.Command {
	var o exportOptions
	cmd := &cobra.Command{
		Use:   "export --account ID --from YYYY-MM-DD --to YYYY-MM-DD [--format json|csv]",
		Short: "Export an account's requests and credits per UTC day and operation, for an invoice",
		Long: `export sums the account's charges per UTC day and operation over the days --from to --to
(both included). A charge counts on the UTC day of its usage record's time (what usage show
prints as "at"); days without charges are left out.

--format json prints one object: the rows ("days": date, operation, requests, credits), their
totals, and the balance movements they reconcile with: "opening" (grants minus charges before
--from), "granted" and "charged" during the days, and "closing" = opening + granted - charged,
which for a range that ends today is the balance account show prints.

--format csv prints the rows only, with a header line:
account_id,date,operation,requests,credits`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			from, to, err := o.days()
			if err != nil {
				return err
			}
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				r, err := s.UsageReport(ctx, o.account, from, to)
				if err != nil {
					return err
				}
				if o.format == "csv" {
					return writeUsageCSV(cmd, r)
				}
				return printJSON(cmd, r)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.account, "account", "", "account id (acct_...)")
	f.StringVar(&o.from, "from", "", "first UTC day, YYYY-MM-DD")
	f.StringVar(&o.to, "to", "", "last UTC day, YYYY-MM-DD (included)")
	f.StringVar(&o.format, "format", "json", "json (rows, totals and balance) or csv (rows)")
	for _, name := range []string{"account", "from", "to"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

// days parses --from and --to and checks --format.
func (o exportOptions) days() (from, to time.Time, err error) {
	if o.format != "json" && o.format != "csv" {
		return time.Time{}, time.Time{}, fmt.Errorf("--format %q: want json or csv", o.format)
	}
	if from, err = time.Parse(time.DateOnly, o.from); err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("--from %q: want a date as YYYY-MM-DD", o.from)
	}
	if to, err = time.Parse(time.DateOnly, o.to); err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("--to %q: want a date as YYYY-MM-DD", o.to)
	}
	if to.Before(from) {
		return time.Time{}, time.Time{}, fmt.Errorf("--to %s is before --from %s", o.to, o.from)
	}
	return from, to, nil
}

// writeUsageCSV writes the report's rows, one per day and operation.
func writeUsageCSV(cmd *cobra.Command, r ledger.UsageReport) error {
	w := csv.NewWriter(cmd.OutOrStdout())
	_ = w.Write([]string{"account_id", "date", "operation", "requests", "credits"})
	for _, d := range r.Days {
		_ = w.Write([]string{r.AccountID, d.Date, d.Operation, strconv.FormatInt(d.Requests, 10), strconv.FormatInt(d.Credits, 10)})
	}
	w.Flush()
	return w.Error()
}
