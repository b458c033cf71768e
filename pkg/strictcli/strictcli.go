// Package strictcli makes a cobra command tree refuse what it does not
// understand, for mapc and mapd alike: a group command (one with
// subcommands and no action of its own) given an unknown or no subcommand
// fails instead of printing its help and exiting 0, which a script would
// take for success; an unknown flag is answered with the flags it may have
// meant, including a flag of another command put in the wrong place.
// Everything here runs once at start-up; nothing is kept.
package strictcli

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Apply hardens root and every command under it. Call it after the tree is
// built.
func Apply(root *cobra.Command) {
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return flagError(root, cmd, err)
	})
	walk(root, func(c *cobra.Command) {
		c.SuggestionsMinimumDistance = 2 // cobra defaults it only where it suggests itself
		if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
			c.Args = cobra.ArbitraryArgs
			c.RunE = groupRun
		}
	})
}

func walk(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walk(sub, fn)
	}
}

// groupRun is the action of a group command: there is none, so say which
// subcommands there are, and which was probably meant.
func groupRun(cmd *cobra.Command, args []string) error {
	var names []string
	for _, sub := range cmd.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	list := strings.Join(names, ", ")
	if len(args) == 0 {
		return fmt.Errorf("%q needs a subcommand: one of %s (%s --help)", cmd.CommandPath(), list, cmd.CommandPath())
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", cmd.CommandPath()+" "+s[0])
	}
	return errors.New(msg + " (the subcommands: " + list + ")")
}

// flagError adds to pflag's "unknown flag: --x" the flags of cmd near x,
// and the commands that take x when cmd does not.
func flagError(root, cmd *cobra.Command, err error) error {
	name, ok := unknownFlag(err.Error())
	if !ok {
		return err
	}
	var near []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Deprecated != "" {
			return
		}
		if d := Distance(name, f.Name); d <= 2 || strings.HasPrefix(f.Name, name) || strings.HasPrefix(name, f.Name) {
			near = append(near, "--"+f.Name)
		}
	})
	var elsewhere []string
	walk(root, func(c *cobra.Command) {
		if c == cmd || c.Hidden {
			return
		}
		if f := c.LocalFlags().Lookup(name); f != nil && !f.Hidden {
			elsewhere = append(elsewhere, c.CommandPath())
		}
	})
	sort.Strings(near)
	msg := err.Error() + " for " + cmd.CommandPath()
	if len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, " or ") + "?"
	}
	if len(elsewhere) > 0 {
		msg += fmt.Sprintf("; --%s is a flag of %s: put it after that command's name", name, strings.Join(elsewhere, ", "))
	}
	return errors.New(msg + " (" + cmd.CommandPath() + " --help)")
}

// unknownFlag finds the flag's name in pflag's message.
func unknownFlag(msg string) (string, bool) {
	for _, prefix := range []string{"unknown flag: --", "unknown shorthand flag: "} {
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			if prefix != "unknown flag: --" {
				return "", false // -x: no name to compare
			}
			name, _, _ := strings.Cut(rest, "=")
			return name, true
		}
	}
	return "", false
}

// Distance is the Levenshtein distance between a and b, in bytes: how
// near a mistyped name (a flag, a file) is to a known one.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
