package strictcli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// tree is a small command tree: tool {release {use, prune --keep}, build --osm}.
func tree() *cobra.Command {
	root := &cobra.Command{Use: "tool", SilenceUsage: true, SilenceErrors: true}
	rel := &cobra.Command{Use: "release"}
	noop := func(*cobra.Command, []string) error { return nil }
	prune := &cobra.Command{Use: "prune", RunE: noop}
	prune.Flags().Int("keep", 3, "")
	rel.AddCommand(&cobra.Command{Use: "use", RunE: noop}, prune)
	build := &cobra.Command{Use: "build", RunE: noop}
	build.Flags().String("osm", "", "")
	build.Flags().String("old", "", "")
	_ = build.Flags().MarkDeprecated("old", "use --osm")
	root.AddCommand(rel, build)
	Apply(root)
	return root
}

func run(args ...string) (string, error) {
	root := tree()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		return err.Error(), err
	}
	return out.String(), nil
}

func TestApply(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" = success
	}{
		{[]string{"release", "use"}, ""},
		{[]string{"release"}, `"tool release" needs a subcommand: one of prune, use`},
		{[]string{"release", "pruen"}, `did you mean "tool release prune"?`},
		{[]string{"release", "delete"}, `unknown command "delete" for "tool release" (the subcommands: prune, use)`},
		{[]string{"build", "--osn", "x"}, "did you mean --osm?"},
		{[]string{"build", "--keep", "1"}, "--keep is a flag of tool release prune"},
		{[]string{"build", "--ol", "x"}, "did you mean --osm?"}, // never a deprecated name
		{[]string{"release", "--keep", "1", "prune"}, ""},       // cobra finds the subcommand past the flag
	} {
		got, err := run(c.args...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.want != "" && err == nil:
			t.Errorf("%v succeeded (%q), want an error with %q", c.args, got, c.want)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%v: %q, want %q in it", c.args, got, c.want)
		}
	}
	if got, _ := run("build", "--ol", "x"); strings.Contains(got, "--old") {
		t.Errorf("a deprecated flag suggested: %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"ledgr", "ledger", 1}, {"ratelimit", "rate-limit", 1}, {"abc", "", 3}, {"kitten", "sitting", 3}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
