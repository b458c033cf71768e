package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is mapd's GOGC unless the environment sets one. The release is
// mapped, not loaded, so mapd's live heap is only buffers and pooled search
// state, a few MiB; at Go's default of 100 the collector then ran every few
// hundred requests, and each cycle also empties the pools of search state
// that the next requests must allocate again. On the directions handler
// (Andorra, alternatives 0, BENCHMARKS.md "Garbage collection"), GOGC 100
// cost 179 µs of CPU per request, 200 122 µs, 400 107 µs, 800 111 µs and
// 1600 120 µs (a larger heap is colder in the cache). The price is a peak
// heap of about five times the live one.
const gcPercent = 400

// tuneGC sets gcPercent unless the operator set GOGC.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
