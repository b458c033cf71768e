package search

import (
	"context"
	"runtime"
	"sync"
)

// DefaultWorkers is the size of the worker pools of a serving process: one
// per core, GOMAXPROCS but no more than the CPUs the process may use (mapd
// raises GOMAXPROCS above the cores for the embedded ledger's disk waits,
// docs/metering.md). A search holds a worker only while it computes, never
// while its request waits on the network or the ledger, so one per core
// keeps the cores busy; the API's admission limit may let in more
// computations than that, and those wait here for a worker (the
// hand-over is a channel receive), their memory already bounded.
func DefaultWorkers() int { return min(runtime.GOMAXPROCS(0), runtime.NumCPU()) }

// Pool is a fixed set of n search workers' scratch memory (queries, label
// tables, heaps), made on first demand and reused for good. A caller takes
// one for the length of a computation and puts it back; when all n are
// taken, the next caller waits. So the memory searches hold depends on n,
// never on how many clients are connected, as with OSRM's per-thread
// heaps. sync.Pool gives no such bound: it makes a value for every caller
// that finds it empty, and drops its values at each garbage collection.
//
// A Pool is safe for concurrent use.
type Pool[T any] struct {
	free  chan T
	mu    sync.Mutex
	made  int
	newFn func() T
}

// NewPool returns a pool of at most n values (at least 1), made by newFn.
func NewPool[T any](n int, newFn func() T) *Pool[T] {
	n = max(n, 1)
	return &Pool[T]{free: make(chan T, n), newFn: newFn}
}

// Size returns the number of workers, n.
func (p *Pool[T]) Size() int { return cap(p.free) }

// Get takes a worker's value, waiting while all are taken. It fails only
// when ctx ends first.
func (p *Pool[T]) Get(ctx context.Context) (T, error) {
	if v, ok := p.TryGet(); ok {
		return v, nil
	}
	select {
	case v := <-p.free:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// TryGet takes a worker's value if one is free (or may still be made)
// without waiting; ok is false when all are taken. A computation that
// already holds one and wants more for parallel work uses it, so that two
// such computations cannot wait on each other.
func (p *Pool[T]) TryGet() (v T, ok bool) {
	select {
	case v := <-p.free:
		return v, true
	default:
	}
	p.mu.Lock()
	if p.made == cap(p.free) {
		p.mu.Unlock()
		return v, false
	}
	p.made++
	p.mu.Unlock()
	return p.newFn(), true
}

// Put gives a value taken by Get or TryGet back.
func (p *Pool[T]) Put(v T) {
	select {
	case p.free <- v:
	default:
		panic("search: Pool.Put of a value the pool did not give")
	}
}
