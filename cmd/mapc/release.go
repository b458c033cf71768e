package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/release"
)

// newReleaseCmd groups the commands that manage a directory of releases:
// the one `mapc build --out` writes into and `mapd serve --data` serves.
func newReleaseCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "release",
		Short: "List the releases in a directory, point current at one, prune old ones",
		Long: `release manages a directory of releases. "current" in it names the release mapd serves;
a running mapd notices when it moves, verifies the new release and swaps to it without
dropping a request (see docs/operations.md).`,
	}
	cmd.PersistentFlags().StringVar(&dir, "dir", "releases", "directory of releases (mapc build --out, mapd serve --data)")
	cmd.AddCommand(newReleaseListCmd(&dir), newReleaseUseCmd(&dir), newReleasePruneCmd(&dir))
	return cmd
}

func newReleaseListCmd(dir *string) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List releases, newest first: data_version, build time, size, and which is current",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			infos, err := release.List(*dir)
			if err != nil {
				return err
			}
			if asJSON {
				return printReleasesJSON(cmd.OutOrStdout(), infos)
			}
			return printReleases(cmd.OutOrStdout(), infos)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

// printReleases writes a table; "*" marks the current release.
func printReleases(w io.Writer, infos []release.Info) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CURRENT\tNAME\tDATA_VERSION\tBUILD_TIME\tSIZE_MIB\tFORMAT")
	for _, in := range infos {
		mark := ""
		if in.Current {
			mark = "*"
		}
		if in.Err != nil {
			fmt.Fprintf(tw, "%s\t%s\t(unreadable: %v)\t\t\t\n", mark, in.Name, in.Err)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f\t%d\n", mark, in.Name, in.DataVersion,
			in.BuildTime.UTC().Format(time.RFC3339), float64(in.Bytes)/(1<<20), in.FormatVersion)
	}
	return tw.Flush()
}

func printReleasesJSON(w io.Writer, infos []release.Info) error {
	type row struct {
		Name          string    `json:"name"`
		DataVersion   string    `json:"data_version,omitempty"`
		BuildTime     time.Time `json:"build_time"`
		FormatVersion int       `json:"format_version,omitempty"`
		Bytes         int64     `json:"bytes"`
		Current       bool      `json:"current"`
		Error         string    `json:"error,omitempty"`
	}
	rows := make([]row, 0, len(infos))
	for _, in := range infos {
		r := row{in.Name, in.DataVersion, in.BuildTime, in.FormatVersion, in.Bytes, in.Current, ""}
		if in.Err != nil {
			r.Error = in.Err.Error()
		}
		rows = append(rows, r)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // URLs and names print as typed: & not \u0026
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

func newReleaseUseCmd(dir *string) *cobra.Command {
	var noVerify bool
	var gateWith string
	var gate gateFlags
	cmd := &cobra.Command{
		Use:   "use NAME",
		Short: "Point current at a release, atomically; a running mapd swaps to it",
		Long: `use verifies the release (every size, SHA-256 and section checksum, as mapd verify does)
and then points current at it by renaming a new symlink over the old pointer, so mapd never
sees a missing or half-written pointer. mapd verifies it again before swapping.

With --gate-with OLD (a release name, or "current" for the release current points at) it first
runs mapc compare OLD NAME and leaves current alone, exiting 2, when a threshold is crossed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if f := gate.changed(cmd); f != "" && gateWith == "" {
				return fmt.Errorf("--%s is a comparison flag: it needs --gate-with", f)
			}
			if !noVerify {
				if err := release.Verify(filepath.Join(*dir, name)); err != nil {
					return fmt.Errorf("not switching to %s: %w", name, err)
				}
			}
			if gateWith != "" {
				if err := runGate(cmd, *dir, gateWith, name, &gate); err != nil {
					return err
				}
			}
			if err := release.Use(*dir, name); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "current -> %s\n", name)
			return nil
		},
	}
	cmd.Flags().BoolVar(&noVerify, "no-verify", false, "skip the full checksum pass (mapd still verifies before swapping)")
	cmd.Flags().StringVar(&gateWith, "gate-with", "", `compare with this release ("current": the one current points at) and refuse when a threshold is crossed`)
	gate.register(cmd)
	return cmd
}

// runGate compares release name with the one gateWith names in dir.
func runGate(cmd *cobra.Command, dir, gateWith, name string, gate *gateFlags) error {
	old := gateWith
	if gateWith == release.CurrentFile {
		cur, err := release.CurrentName(dir)
		if err != nil {
			return err
		}
		if cur == "" {
			return fmt.Errorf("not switching to %s: --gate-with current, but %s has no current release to compare with (use it without --gate-with the first time)", name, dir)
		}
		old = cur
	}
	if err := gate.run(cmd.Context(), filepath.Join(dir, old), filepath.Join(dir, name), cmd.OutOrStdout()); err != nil {
		return fmt.Errorf("not switching to %s: %w", name, err)
	}
	return nil
}

// printKept says what prune keeps and why: the newest --keep, the current
// one, and directories without a readable manifest (never touched).
func printKept(w io.Writer, dir string, keep int, cands []release.Info) error {
	all, err := release.List(dir)
	if err != nil {
		return err
	}
	pruned := map[string]bool{}
	for _, c := range cands {
		pruned[c.Name] = true
	}
	for _, in := range all {
		switch {
		case in.Err != nil:
			fmt.Fprintf(w, "keeping %s (not a readable release: %v)\n", in.Name, in.Err)
		case in.Current:
			fmt.Fprintf(w, "keeping %s (current)\n", in.Name)
		case !pruned[in.Name]:
			fmt.Fprintf(w, "keeping %s (among the %d newest)\n", in.Name, keep)
		}
	}
	return nil
}

func newReleasePruneCmd(dir *string) *cobra.Command {
	var keep int
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Delete all but the --keep newest releases, never the current one",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cands, err := release.PruneCandidates(*dir, keep)
			if err != nil {
				return err
			}
			if err := printKept(cmd.OutOrStdout(), *dir, keep, cands); err != nil {
				return err
			}
			verb := "removed"
			var names []string
			if dryRun {
				verb = "would remove"
				for _, c := range cands {
					names = append(names, c.Name)
				}
			} else {
				names, err = release.Prune(*dir, keep)
			}
			for _, name := range names {
				fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", verb, name)
			}
			if len(cands) == 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "nothing to prune in %s with --keep %d\n", *dir, keep)
			}
			return err
		},
	}
	cmd.Flags().IntVar(&keep, "keep", 3, "releases to keep, newest first; the current one is always kept and counts when among them")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be removed")
	return cmd
}
