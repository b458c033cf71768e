//go:build !benchunmetered

package main

import (
	"io"
	"log/slog"
	"testing"
)

// TestNoUnmeteredFlag: a production build of mapd has no way to serve
// unmetered; only the benchmark build (-tags benchunmetered) has the flag.
func TestNoUnmeteredFlag(t *testing.T) {
	cmd := newServeCmd(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if f := cmd.Flags().Lookup("unmetered"); f != nil {
		t.Fatalf("mapd serve has --%s", f.Name)
	}
}

// TestUnmeteredOnlyOnLoopback: the benchmark build's unmetered server
// refuses any address but loopback.
func TestUnmeteredOnlyOnLoopback(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for addr, ok := range map[string]bool{
		"127.0.0.1:8080": true, "[::1]:0": true, "0.0.0.0:8080": false, ":8080": false,
		"10.1.2.3:80": false, "localhost:8080": false, "garbage": false,
	} {
		if err := checkUnmetered(log, addr); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
	}
}
