package main

import (
	"context"
	"os"
	"runtime/debug"
	"time"

	"github.com/mapsco/maps/pkg/serving"
)

// gcPercent is mapd's GOGC unless the environment sets one. The release is
// mapped, not loaded, so mapd's live heap is only buffers and pooled search
// state, a few MiB; at Go's default of 100 the collector then ran every few
// hundred requests, and each cycle also empties the pools of search state
// that the next requests must allocate again. On the directions handler
// (Andorra, alternatives 0, docs/benchmarks-history.md "Garbage collection"), GOGC 100
// cost 179 µs of CPU per request, 200 122 µs, 400 107 µs, 800 111 µs and
// 1600 120 µs (a larger heap is colder in the cache). The price is a peak
// heap of about five times the live one.
const gcPercent = 400

// memoryLimit is mapd's soft memory limit (GOMEMLIMIT) unless the
// environment sets one. gcPercent lets the heap grow to five times the live
// one; on a country the live heap is the search workers' labels (a fixed
// set of workers, search.Pool, whose labels grow with what their searches
// touch: alternatives over 1,000 km touch 200,000 arcs of the 3M-node
// synthetic country) and the answers in flight, tens of MiB, and five times
// that was most of the anonymous memory mapd held under load. With the
// limit the collector runs earlier once the heap nears it, so the heap
// stays near the limit however many clients are connected, while
// Andorra's few MiB keep gcPercent's rare collections. The mapping of the
// release is not counted: it is file-backed page cache.
const memoryLimit = 128 << 20

// tuneGC sets gcPercent and memoryLimit unless the operator set GOGC or
// GOMEMLIMIT; with the limit set, it raises it by what the served
// release's customized hierarchies hold (followCustomized) until ctx ends.
func tuneGC(ctx context.Context, holder *serving.Holder) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		go followCustomized(ctx, holder)
	}
}

// followCustomized keeps the memory limit at memoryLimit plus the heap the
// served release's customized hierarchies hold (road operations, and
// options asked for often: docs/road-operations.md), looking every second.
// They are live data, not garbage: counted inside the fixed limit they
// left the search workers so little room that under load the collector ran
// ten times as often (a 3M-node country with operations, directions with
// an alternative: 1.46× the CPU without operations, 1.08× with the limit
// raised by the hierarchy's size).
func followCustomized(ctx context.Context, holder *serving.Holder) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var set int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		rel, release := holder.Acquire()
		var held int64
		for _, r := range rel.Routers {
			held += r.CustomizedBytes()
		}
		release()
		if held != set {
			debug.SetMemoryLimit(memoryLimit + held)
			set = held
		}
	}
}
