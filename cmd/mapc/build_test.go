package main

import (
	"io"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"
	"testing"
)

// TestMemoryLimit: mapc build sets the runtime's soft memory limit from
// --memory-limit (by default 3/4 of the machine's memory), leaves
// GOMEMLIMIT's alone unless the flag is given, and refuses a negative one
// before reading anything.
func TestMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	if mib := defaultMemoryLimitMiB(); mib < 1024 || mib > 1<<30 {
		t.Errorf("default limit %d MiB: the machine's memory was misread", mib)
	}
	cases := []struct {
		name, env string
		args      []string
		want      int64
	}{
		{"default", "", nil, defaultMemoryLimitMiB() << 20},
		{"given", "", []string{"--memory-limit", "900"}, 900 << 20},
		{"none", "", []string{"--memory-limit", "0"}, math.MaxInt64},
		{"environment kept", "1GiB", nil, 12345},
		{"flag over environment", "1GiB", []string{"--memory-limit", "700"}, 700 << 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", c.env)
			debug.SetMemoryLimit(12345) // what the runtime would have read from GOMEMLIMIT
			cmd := newBuildCmd(slog.New(slog.DiscardHandler))
			cmd.SetArgs(append([]string{"--osm", t.TempDir() + "/missing.pbf", "--out", t.TempDir()}, c.args...))
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			if err := cmd.Execute(); err == nil {
				t.Fatal("a missing PBF built")
			}
			if got := debug.SetMemoryLimit(-1); got != c.want {
				t.Errorf("limit %d, want %d", got, c.want)
			}
			if got := debug.SetGCPercent(100); got != gcPercent {
				t.Errorf("GOGC %d, want %d", got, gcPercent)
			}
		})
	}
	t.Setenv("GOGC", "200")
	debug.SetGCPercent(200) // what the runtime would have read from GOGC
	cmd := newBuildCmd(slog.New(slog.DiscardHandler))
	cmd.SetArgs([]string{"--osm", t.TempDir() + "/missing.pbf", "--out", t.TempDir()})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.Execute()
	if got := debug.SetGCPercent(100); got != 200 {
		t.Errorf("with GOGC=200 set, GOGC %d", got)
	}
	cmd = newBuildCmd(slog.New(slog.DiscardHandler))
	cmd.SetArgs([]string{"--osm", "x.pbf", "--memory-limit", "-1"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "--memory-limit -1") {
		t.Errorf("--memory-limit -1: %v, want it refused", err)
	}
}
