//go:build !benchunmetered

package main

import "github.com/spf13/cobra"

// addBenchmarkFlags adds nothing: production builds of mapd always meter
// (see unmetered_on.go for the benchmark build).
func addBenchmarkFlags(*cobra.Command, *serveOptions) {}
