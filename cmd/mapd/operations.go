package main

// Road operations commands: operators publish closures and slowdowns
// (pkg/roadops) while mapd serves. They write the operations store beside
// the ledger (LEDGER.operations, or the PostgreSQL database's own tables)
// directly, with no admin socket: the store is shared by processes, and
// every serving mapd watches it and applies a change within a second.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/open"
	"github.com/mapsco/maps/pkg/roadops"
)

// maxImportBytes bounds what operations import reads.
const maxImportBytes = 64 << 20

// opsFlags are the flags every operations subcommand takes.
type opsFlags struct {
	ledgerFlag
	by string
}

func newOperationsCommand() *cobra.Command {
	of := &opsFlags{}
	group := &cobra.Command{
		Use:   "operations",
		Short: "Publish road closures and slowdowns to serving mapd (add, review, withdraw, list, import)",
		Long: `operations manages road operations: closures and slowdowns that every serving mapd applies
within a second of their review, without a new release. An operation is added as a draft,
applies once reviewed (within its validity window) and ends when withdrawn; every change is
recorded with who made it. They are kept beside the ledger --ledger names: for an embedded
ledger FILE in FILE.operations, for PostgreSQL in tables of their own in its database.`,
	}
	group.PersistentFlags().StringVar(&of.dsn, "ledger", defaultLedger, "ledger: an embedded file or a postgres:// URL")
	group.PersistentFlags().StringVar(&of.by, "by", "", "who makes the change, for the history (default $USER, or the login name)")
	for _, sub := range []func(*opsFlags) *cobra.Command{opsAddCmd, opsTransitionCmd(roadops.ActionReview),
		opsTransitionCmd(roadops.ActionWithdraw), opsShowCmd, opsListCmd, opsImportCmd, opsHistoryCmd, opsRecoverCmd} {
		group.AddCommand(sub(of))
	}
	return group
}

// who names the operator for the history.
func (of *opsFlags) who() (string, error) {
	if of.by != "" {
		return of.by, nil
	}
	if u := os.Getenv("USER"); u != "" {
		return u, nil
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username, nil
	}
	return "", errors.New("who makes this change? give --by NAME ($USER is not set)")
}

// withOps opens the operations store of an existing ledger, runs fn and
// closes it. A --ledger that names no ledger is refused as the other
// admin commands refuse it, before any operations file is created.
func withOps(cmd *cobra.Command, of *opsFlags, fn func(context.Context, roadops.Store) error) error {
	ctx, cancel := context.WithTimeout(cmd.Context(), adminTimeout)
	defer cancel()
	if err := requireLedger(ctx, of.dsn); err != nil {
		return err
	}
	s, err := roadops.Open(ctx, of.dsn)
	if err != nil {
		return err
	}
	if err := fn(ctx, s); err != nil {
		s.Close()
		return err
	}
	return s.Close()
}

// requireLedger refuses a --ledger where there is no ledger. An embedded
// one is only looked for (a serving mapd holds its file's lock).
func requireLedger(ctx context.Context, dsn string) error {
	if open.Embedded(dsn) {
		if _, err := os.Stat(dsn); err != nil {
			return explainOpen(dsn, fmt.Errorf("%w: ledger file %s does not exist", ledger.ErrNoLedger, dsn))
		}
		return nil
	}
	store, err := open.OpenWith(ctx, dsn, ledger.Options{MustExist: true, Logger: adminLogger()})
	if err != nil {
		return explainOpen(dsn, err)
	}
	return store.Close()
}

func opsAddCmd(of *opsFlags) *cobra.Command {
	var op roadops.Operation
	var kind, direction, from, to, line, polygonFile, profiles, validFrom, validUntil string
	cmd := &cobra.Command{
		Use: "add --kind closure|slowdown (--way ID [--from LON,LAT --to LON,LAT] | --line LON,LAT;LON,LAT;... | --polygon-file F.geojson) " +
			"[--direction forward|backward|both] [--factor F | --speed-kph N] [--profiles car,truck,...] [--valid-from RFC3339] [--valid-until RFC3339] --reason TEXT [--reference TEXT]",
		Short: "Add a closure or slowdown as a draft and print it with its id (review it to apply it)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			op.Kind, op.Direction = roadops.Kind(kind), roadops.Direction(direction)
			if err := parseOpFlags(&op, from, to, line, polygonFile, profiles, validFrom, validUntil); err != nil {
				return err
			}
			if err := op.Validate(); err != nil {
				return err
			}
			who, err := of.who()
			if err != nil {
				return err
			}
			return withOps(cmd, of, func(ctx context.Context, s roadops.Store) error {
				added, err := s.Add(ctx, op, who)
				if err != nil {
					return err
				}
				return printJSON(cmd, added)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&kind, "kind", "", "closure or slowdown (required)")
	f.Int64Var(&op.Way, "way", 0, "OSM way id")
	f.StringVar(&from, "from", "", "with --to and --way: only the part of the way from LON,LAT ...")
	f.StringVar(&to, "to", "", "... to LON,LAT")
	f.StringVar(&line, "line", "", "a line matched onto the roads: LON,LAT;LON,LAT;...")
	f.StringVar(&polygonFile, "polygon-file", "", "every road inside the GeoJSON Polygon in this file")
	f.StringVar(&direction, "direction", "both", "forward (the way's own direction), backward or both")
	f.Float64Var(&op.Factor, "factor", 0, "slowdown: travel time × F (1 < F <= 100)")
	f.Float64Var(&op.SpeedKPH, "speed-kph", 0, "slowdown: at most N km/h (never faster than normal)")
	f.StringVar(&profiles, "profiles", "", "only these profiles, comma-separated (default all): "+strings.Join(roadops.Profiles, ","))
	f.StringVar(&validFrom, "valid-from", "", "applies from this time (RFC 3339, e.g. 2026-11-28T08:00:00Z; default at once)")
	f.StringVar(&validUntil, "valid-until", "", "applies until this time (RFC 3339; default until withdrawn)")
	f.StringVar(&op.Reason, "reason", "", "why, for operators and the history (required)")
	f.StringVar(&op.Reference, "reference", "", "the road authority's notice or ticket")
	_ = cmd.MarkFlagRequired("kind")
	_ = cmd.MarkFlagRequired("reason")
	return cmd
}

// parseOpFlags fills op from add's textual flags.
func parseOpFlags(op *roadops.Operation, from, to, line, polygonFile, profiles, validFrom, validUntil string) error {
	var err error
	if op.From, err = parsePointFlag("--from", from); err != nil {
		return err
	}
	if op.To, err = parsePointFlag("--to", to); err != nil {
		return err
	}
	if line != "" {
		for i, p := range strings.Split(strings.Trim(line, ";"), ";") {
			pt, err := parsePointFlag(fmt.Sprintf("--line point %d", i+1), p)
			if err != nil {
				return err
			}
			op.Line = append(op.Line, *pt)
		}
	}
	if polygonFile != "" {
		raw, err := os.ReadFile(polygonFile)
		if err != nil {
			return fmt.Errorf("--polygon-file: %w", err)
		}
		if op.Polygon, err = roadops.DecodePolygon(raw); err != nil {
			return fmt.Errorf("--polygon-file %s: %w", polygonFile, err)
		}
	}
	if profiles != "" {
		op.Profiles = strings.Split(profiles, ",")
	}
	if op.ValidFrom, err = parseTimeFlag("--valid-from", validFrom); err != nil {
		return err
	}
	op.ValidUntil, err = parseTimeFlag("--valid-until", validUntil)
	return err
}

func parsePointFlag(name, v string) (*[2]float64, error) {
	if v == "" {
		return nil, nil
	}
	lonText, latText, ok := strings.Cut(v, ",")
	lon, err1 := strconv.ParseFloat(strings.TrimSpace(lonText), 64)
	lat, err2 := strconv.ParseFloat(strings.TrimSpace(latText), 64)
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%s %q: want LON,LAT (e.g. 1.7197,42.5401)", name, v)
	}
	return &[2]float64{lon, lat}, nil
}

func parseTimeFlag(name, v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, fmt.Errorf("%s %q: want an RFC 3339 time, e.g. 2026-11-28T08:00:00Z or 2026-11-28T09:00:00+01:00", name, v)
	}
	return &t, nil
}

// opsTransitionCmd builds review and withdraw.
func opsTransitionCmd(action string) func(*opsFlags) *cobra.Command {
	short := map[string]string{
		roadops.ActionReview:   "Review a draft: it applies from now on, within its validity window",
		roadops.ActionWithdraw: "Withdraw an operation for good: it stops applying",
	}[action]
	return func(of *opsFlags) *cobra.Command {
		return &cobra.Command{
			Use:   action + " ID",
			Short: short,
			Args:  cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				who, err := of.who()
				if err != nil {
					return err
				}
				return withOps(cmd, of, func(ctx context.Context, s roadops.Store) error {
					change := s.Review
					if action == roadops.ActionWithdraw {
						change = s.Withdraw
					}
					op, err := change(ctx, args[0], who)
					if err != nil {
						return err
					}
					return printJSON(cmd, op)
				})
			},
		}
	}
}

func opsShowCmd(of *opsFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show an operation, its history and how each release resolved it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withOps(cmd, of, func(ctx context.Context, s roadops.Store) error {
				op, err := s.Get(ctx, args[0])
				if err != nil {
					return err
				}
				history, err := s.History(ctx, args[0])
				if err != nil {
					return err
				}
				res, err := resolutionsByOp(ctx, s)
				if err != nil {
					return err
				}
				return printJSON(cmd, shownOp{Operation: op, Active: op.Active(time.Now()), History: history,
					Resolutions: nonNil(res[op.ID])})
			})
		},
	}
}

// shownOp is what operations show prints.
type shownOp struct {
	Operation   roadops.Operation    `json:"operation"`
	Active      bool                 `json:"active"`
	History     []roadops.Change     `json:"history"`
	Resolutions []roadops.Resolution `json:"resolutions"`
}

func opsHistoryCmd(of *opsFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "history [ID]",
		Short: "List every change (who, when, what) of one operation or of all, oldest first",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withOps(cmd, of, func(ctx context.Context, s roadops.Store) error {
				history, err := s.History(ctx, strings.Join(args, ""))
				if err != nil {
					return err
				}
				return printJSON(cmd, history)
			})
		},
	}
}

func opsImportCmd(of *opsFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Add the operations of a GeoJSON FeatureCollection as drafts: all of them, or none if any is invalid",
		Long: `import reads a GeoJSON FeatureCollection (FILE, or - for stdin) and adds one draft per feature,
all at once: if any feature is invalid, nothing is added and the error names each invalid
feature by its index (from 0) and field. A LineString feature is a line matched onto the roads,
a Polygon feature covers every road inside, and a feature with "geometry": null gives an OSM way
in its properties. Properties: kind, way, from, to, direction, factor, speed_kph, profiles (an
array), valid_from, valid_until (RFC 3339), reason, reference; any other is refused as a typo.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := readImport(args[0])
			if err != nil {
				return err
			}
			ops, err := roadops.DecodeFeatureCollection(raw)
			if err != nil {
				return fmt.Errorf("import %s: %w", args[0], err)
			}
			who, err := of.who()
			if err != nil {
				return err
			}
			return withOps(cmd, of, func(ctx context.Context, s roadops.Store) error {
				added, err := s.AddAll(ctx, ops, who)
				if err != nil {
					return err
				}
				ids := make([]string, len(added))
				for i, op := range added {
					ids[i] = op.ID
				}
				return printJSON(cmd, map[string]any{"imported": len(added), "state": roadops.ReviewDraft, "ids": ids})
			})
		},
	}
}

func readImport(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxImportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	if len(raw) > maxImportBytes {
		return nil, fmt.Errorf("import %s: more than %d MiB: split it", name, maxImportBytes>>20)
	}
	return raw, nil
}

func opsRecoverCmd(of *opsFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "recover",
		Short: "Rewrite a damaged embedded operations file with every intact record; report what is lost",
		Long: `recover is for an embedded ledger whose operations file (FILE.operations) is damaged before its
last record, which every operations command and mapd refuse with "road operations file damaged ...
at offset N". It keeps every intact record, drops the damaged bytes (the changes in them are lost;
an operation whose add was damaged comes back from its later changes), keeps the damaged file aside
as FILE.operations.damaged-UNIXTIME and prints what it did. Run it with mapd stopped, then check
the result with operations list and history. A PostgreSQL ledger needs no recover.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !open.Embedded(of.dsn) {
				return errors.New("operations recover is for an embedded ledger's file; PostgreSQL keeps operations in tables")
			}
			if err := requireLedger(cmd.Context(), of.dsn); err != nil {
				return err
			}
			rep, err := roadops.RecoverEmbedded(cmd.Context(), of.dsn)
			if err != nil {
				return err
			}
			return printJSON(cmd, rep)
		},
	}
}

// resolutionsByOp groups the latest resolution reports by operation.
func resolutionsByOp(ctx context.Context, s roadops.Store) (map[string][]roadops.Resolution, error) {
	all, err := s.Resolutions(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]roadops.Resolution{}
	for _, r := range all {
		r.Shape = nil // the way's points, kept for mapd's own use: a long way would fill the listing
		out[r.ID] = append(out[r.ID], r)
	}
	return out, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
