package ch

import (
	"context"
	"sync"
)

// initialPriorities simulates contracting every node of the untouched
// graph, a third of a contraction's witness searches, on up to workers
// goroutines. The simulations only read the graph, so each priority is
// what one goroutine would compute: the hierarchy does not depend on
// workers. Nodes are dealt in blocks of neighbouring IDs, which keeps each
// goroutine's searches within the same part of the graph.
func (c *contractor) initialPriorities(ctx context.Context, workers int) []uint32 {
	const block = 4096
	n := len(c.out)
	prio := make([]uint32, n)
	blocks := (n + block - 1) / block
	next := make(chan int, blocks)
	for b := range blocks {
		next <- b
	}
	close(next)
	var wg sync.WaitGroup
	for w := range max(1, min(workers, blocks)) {
		sim := c.sim
		if w > 0 {
			sim = newSimulation(n) // c.sim is the caller's: one goroutine uses it
		}
		wg.Go(func() {
			for b := range next {
				if ctx.Err() != nil {
					return
				}
				for v := b * block; v < min(n, (b+1)*block); v++ {
					prio[v] = c.priority(sim, uint32(v))
				}
			}
		})
	}
	wg.Wait()
	return prio
}
