package main

// operations list: every operation with its resolution status per release,
// as JSON or as a table for people.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mapsco/maps/pkg/roadops"
	"github.com/spf13/cobra"
)

// listedOp is one operation in list's JSON: its fields, whether it applies
// now, and the latest resolution per data_version.
type listedOp struct {
	roadops.Operation
	Active      bool                 `json:"active"`
	Resolutions []roadops.Resolution `json:"resolutions"`
}

// listStates are list's --state values: a review state, or active (what
// applies now).
var listStates = []string{"", "draft", "reviewed", "withdrawn", "active"}

func opsListCmd(of *opsFlags) *cobra.Command {
	var format, state string
	cmd := &cobra.Command{
		Use:   "list [--format table|json|geojson] [--state draft|reviewed|withdrawn|active]",
		Short: "List operations in order of creation, with how each release resolved them",
		Long: `list prints every operation (or those of one --state; active means reviewed and within its
validity window now) in order of creation. The table's RESOLVED column gives, per data_version a
serving mapd reported, "ok" and the number of graph segments the operation covers there, or
UNRESOLVED when that release has no road for it (it then applies nowhere: fix or withdraw it);
the table shows the two data versions reported last, --format json all of them.
--format geojson writes a FeatureCollection that operations import reads back (as new drafts),
to copy operations from one ledger to another.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains([]string{"table", "json", "geojson"}, format) {
				return fmt.Errorf("--format %q: want table, json or geojson", format)
			}
			if !slices.Contains(listStates, state) {
				return fmt.Errorf("--state %q: want draft, reviewed, withdrawn or active", state)
			}
			return withOps(cmd, of, func(ctx context.Context, s roadops.Store) error {
				listed, err := listOps(ctx, s, state, time.Now())
				if err != nil {
					return err
				}
				switch format {
				case "json":
					return printJSON(cmd, listed)
				case "geojson":
					return printGeoJSON(cmd, listed)
				}
				return printOpsTable(cmd, listed)
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "table, json or geojson (what operations import reads)")
	cmd.Flags().StringVar(&state, "state", "", "only draft, reviewed, withdrawn or active operations")
	return cmd
}

func listOps(ctx context.Context, s roadops.Store, state string, now time.Time) ([]listedOp, error) {
	ops, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	res, err := resolutionsByOp(ctx, s)
	if err != nil {
		return nil, err
	}
	listed := []listedOp{}
	for _, op := range ops {
		active := op.Active(now)
		if state == "active" && !active || state != "" && state != "active" && string(op.State) != state {
			continue
		}
		listed = append(listed, listedOp{Operation: op, Active: active, Resolutions: nonNil(res[op.ID])})
	}
	return listed, nil
}

func printGeoJSON(cmd *cobra.Command, listed []listedOp) error {
	ops := make([]roadops.Operation, len(listed))
	for i, l := range listed {
		ops[i] = l.Operation
	}
	raw, err := roadops.EncodeFeatureCollection(ops)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", raw)
	return err
}

// tableDataVersions is how many data versions the table's RESOLVED column
// shows: the ones reported last (the release served and the one before);
// --format json has them all.
const tableDataVersions = 2

// recentDataVersions returns the n data versions reported last.
func recentDataVersions(listed []listedOp, n int) map[string]bool {
	latest := map[string]time.Time{}
	for _, op := range listed {
		for _, r := range op.Resolutions {
			if r.At.After(latest[r.DataVersion]) {
				latest[r.DataVersion] = r.At
			}
		}
	}
	versions := make([]string, 0, len(latest))
	for v := range latest {
		versions = append(versions, v)
	}
	slices.SortFunc(versions, func(a, b string) int {
		if c := latest[b].Compare(latest[a]); c != 0 {
			return c
		}
		return strings.Compare(b, a)
	})
	keep := map[string]bool{}
	for _, v := range versions[:min(n, len(versions))] {
		keep[v] = true
	}
	return keep
}

func printOpsTable(cmd *cobra.Command, listed []listedOp) error {
	recent := recentDataVersions(listed, tableDataVersions)
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tKIND\tSTATE\tACTIVE\tWHERE\tDIR\tEFFECT\tPROFILES\tVALID\tRESOLVED\tREASON")
	for _, op := range listed {
		profiles := strings.Join(op.Profiles, ",")
		if profiles == "" {
			profiles = "all"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", op.ID, op.Kind, op.State, yesNo(op.Active),
			where(op.Operation), op.Direction, effect(op.Operation), profiles, window(op.Operation),
			resolved(op.Resolutions, recent), shorten(op.Reason, 40))
	}
	return w.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func where(op roadops.Operation) string {
	switch {
	case op.Way != 0 && op.From != nil:
		return fmt.Sprintf("way %d (%g,%g to %g,%g)", op.Way, op.From[0], op.From[1], op.To[0], op.To[1])
	case op.Way != 0:
		return fmt.Sprintf("way %d", op.Way)
	case op.Line != nil:
		return fmt.Sprintf("line of %d points", len(op.Line))
	}
	return fmt.Sprintf("polygon of %d points", len(op.Polygon[0]))
}

func effect(op roadops.Operation) string {
	switch {
	case op.Kind == roadops.KindClosure:
		return "closed"
	case op.Factor != 0:
		return fmt.Sprintf("time x%g", op.Factor)
	}
	return fmt.Sprintf("<= %g km/h", op.SpeedKPH)
}

func window(op roadops.Operation) string {
	format := func(t *time.Time, none string) string {
		if t == nil {
			return none
		}
		return t.UTC().Format("2006-01-02T15:04Z")
	}
	if op.ValidFrom == nil && op.ValidUntil == nil {
		return "always"
	}
	return format(op.ValidFrom, "") + ".." + format(op.ValidUntil, "")
}

func resolved(rs []roadops.Resolution, recent map[string]bool) string {
	var parts []string
	for _, r := range rs {
		switch {
		case !recent[r.DataVersion]:
		case r.Resolved:
			parts = append(parts, fmt.Sprintf("%s: ok (%d segments)", r.DataVersion, r.Segments))
		case r.Detail != "":
			parts = append(parts, fmt.Sprintf("%s: UNRESOLVED (%s)", r.DataVersion, r.Detail))
		default:
			parts = append(parts, r.DataVersion+": UNRESOLVED")
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
