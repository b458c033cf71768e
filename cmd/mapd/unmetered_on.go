//go:build benchunmetered

package main

import "github.com/spf13/cobra"

// addBenchmarkFlags adds --unmetered to a benchmark build of mapd
// (go build -tags benchunmetered), which scripts/bench uses to measure what
// the routing itself serves over HTTP, the figure the metering's overhead is
// compared with. A binary built without the tag has no such flag, so a
// deployed mapd cannot be started unmetered by mistake.
func addBenchmarkFlags(cmd *cobra.Command, o *serveOptions) {
	cmd.Flags().BoolVar(&o.unmetered, "unmetered", false,
		"BENCHMARK BUILD ONLY: answer every request with no key, credits or rate limit (loopback --listen only)")
}
