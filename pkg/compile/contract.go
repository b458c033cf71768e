package compile

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
)

// contractAll builds every profile's contraction hierarchy, several
// profiles at once (each contraction is sequential, and the profiles are
// independent, so this uses the cores without changing any output). The
// largest graphs start first, so that a small one, not one of the three
// that take minutes on a country (bicycle and the walkers), is what a core
// finishes with.
//
// The cores are shared, not multiplied: with GOMAXPROCS p and k profiles
// contracting at once, each simulates its first priorities on p/k
// goroutines. Giving each of them p (as before) held p witness searches per
// profile, 6p in all, each as large as its graph: at p = 8 on the 3M-node
// country that lifted the live heap past the memory limit, and the
// collector, running without pause, doubled the build's CPU
// (docs/benchmarks-history.md).
func contractAll(ctx context.Context, o Options, graphs []*graph.Graph) ([]*ch.Hierarchy, error) {
	out := make([]*ch.Hierarchy, len(graphs))
	errs := make([]error, len(graphs))
	work := make(chan int)
	var wg sync.WaitGroup
	procs := runtime.GOMAXPROCS(0)
	at := min(procs, len(graphs))
	for range at {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				t := time.Now()
				out[i], errs[i] = ch.BuildWorkers(ctx, ch.FromGraph(graphs[i]), procs/at)
				if errs[i] == nil {
					o.Log.Info("hierarchy built", "profile", graphs[i].Profile, "nodes", out[i].NumNodes(),
						"up_edges", len(out[i].Up)/4, "down_edges", len(out[i].Dn)/4, "elapsed", since(t))
				}
			}
		}()
	}
	for _, i := range largestFirst(graphs) {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("compile: contract %s: %w", graphs[i].Profile, err)
		}
	}
	return out, nil
}

// largestFirst returns the indices of graphs by decreasing number of turns
// (the edges a contraction works on), ties in profile order.
func largestFirst(graphs []*graph.Graph) []int {
	order := make([]int, len(graphs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(graphs[b].NumTurns(), graphs[a].NumTurns()) })
	return order
}
