package route

import (
	"context"
	"runtime/debug"
	"sync"

	"github.com/mapsco/maps/pkg/graph"
)

// When a new set of road operations comes into force, the router's
// hierarchy is contracted again under their overlay, off the request path
// (ch.Hierarchy.Customize): from the moment the overlay is made every
// answer honours the operations, exactly, by repairing the legs and table
// rows that cross a changed road (repair.go); once the customized hierarchy
// is ready, searches run on it (ch.Query.SetState) at the nightly
// hierarchy's speed and repair nothing. A request's exclusions and vehicle
// close roads through an overlay of the same kind: a set of them asked for
// often (customizeAfter requests) is customized the same way, so that a
// fleet's usual options cost no repair either.

// customizeAfter is how many requests ask for a set of exclusions before
// it is customized: one-off sets are repaired, which costs less than the
// seconds of a customization.
const customizeAfter = 8

// customizer runs one customization at a time per router: a newer set of
// operations cancels the one under way, which nobody will ask for again.
type customizer struct {
	mu     sync.Mutex
	off    bool               // SetCustomizing(false): operations are served by repairs alone
	gate   chan struct{}      // ShareCustomizing's, nil for none
	cancel context.CancelFunc // the customization under way, nil for none
	done   chan struct{}      // closed when it ends (the latest started)
	err    error              // how it ended
	// running counts the customizations not yet returned, cancelled ones
	// included: each reads the mapping until it notices.
	running sync.WaitGroup
}

// SetCustomizing turns the customization of the hierarchy under road
// operations on (the default) or off. Off, every answer under operations
// is repaired, as it is while a customization runs: tests and benchmarks
// use it to compare the two.
func (r *Router) SetCustomizing(on bool) {
	r.custom.mu.Lock()
	defer r.custom.mu.Unlock()
	r.custom.off = !on
}

// ShareCustomizing makes the router customize only while it holds gate (a
// channel of capacity 1 shared by the routers of one release): a change
// of operations for every profile then keeps one core customizing, not
// all of them, and the others answering.
func (r *Router) ShareCustomizing(gate chan struct{}) {
	r.custom.mu.Lock()
	defer r.custom.mu.Unlock()
	r.custom.gate = gate
}

// customize starts customizing the hierarchy under ov in the background.
// The overlay of the operations in force (first) cancels the
// customization under way, which serves sets no longer in force; another
// (a set of exclusions asked for often, with the operations) starts only
// when none is under way, and is asked again later otherwise.
func (r *Router) customize(ov *graph.Overlay, first bool) {
	c := &r.custom
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || ov == nil || r.h.Customized(ov) {
		return
	}
	if c.cancel != nil {
		if !first {
			return
		}
		c.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	c.cancel, c.done, c.err = cancel, done, nil
	gate := c.gate
	c.running.Add(1)
	go func() {
		defer c.running.Done()
		defer close(done)
		var err error
		if gate != nil {
			select {
			case gate <- struct{}{}:
				defer func() { <-gate }()
			case <-ctx.Done():
			}
		}
		if err = ctx.Err(); err == nil {
			if _, err = r.h.Customize(ctx, r.g, ov); err == nil {
				// The contraction's working lists, several times the
				// hierarchy's size, are garbage now: hand the pages back
				// rather than keep them resident until the scavenger does.
				debug.FreeOSMemory()
			}
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.done == done {
			c.err, c.cancel = err, nil
		}
		cancel()
	}()
}

// CustomizedBytes returns the heap the router's customized hierarchies
// hold.
func (r *Router) CustomizedBytes() int64 { return r.h.CustomizedBytes() }

// StopCustomizing cancels the customization under way, waits until every
// customization started has stopped reading the graph (those cancelled
// before included), and starts no other: the release is about to be
// unmapped.
func (r *Router) StopCustomizing() {
	r.custom.mu.Lock()
	r.custom.off = true
	if r.custom.cancel != nil {
		r.custom.cancel()
	}
	r.custom.mu.Unlock()
	r.custom.running.Wait()
}

// AwaitCustomized waits until the latest customization started has ended
// (a newer one started meanwhile is waited for in turn) and returns how it
// ended (nil when none was started).
func (r *Router) AwaitCustomized(ctx context.Context) error {
	c := &r.custom
	for {
		c.mu.Lock()
		done := c.done
		c.mu.Unlock()
		if done == nil {
			return nil
		}
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
		c.mu.Lock()
		latest, err := c.done == done, c.err
		c.mu.Unlock()
		if latest {
			return err
		}
	}
}
