package api

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// Admission bounds the computations running at once (issue 19, item 6).
// Without a bound, 512 concurrent 50-waypoint directions with steps took
// mapd to 2.0 GiB resident, a one-point elevation waited 9 s behind them,
// and answers that took over 10 s still came back 200. With one, at most
// Slots computations share the cores, at most Queue more wait for a slot,
// each at most QueueTimeout (and never past its request's ComputeTimeout),
// and the rest are answered 503 with Retry-After at once, before any credit
// is held: shedding costs the client nothing.
//
// Elevation requests skip the queue: at most 1,000 bilinear samples, tens of
// microseconds, less than queueing them would cost; they are what a client
// needs to stay fast while the expensive operations are throttled.
//
// The zero value means the defaults below; PerCore < 0 turns the limit off.
type Admission struct {
	// PerCore is how many computations may run at once per core. 0 means
	// DefaultPerCore.
	PerCore int
	// Cores is the number of cores the computations share. 0 means
	// GOMAXPROCS; mapd passes the cores before it adds a spare P.
	Cores int
	// Queue is how many computations may wait for a slot. 0 means
	// DefaultQueuePerSlot per slot.
	Queue int
	// QueueTimeout is how long a computation may wait for a slot. 0 means
	// DefaultQueueTimeout.
	QueueTimeout time.Duration
}

// Defaults of Admission, measured in docs/benchmarks-history.md ("Load shedding").
//
// One computation per core: with two, every P of the Go scheduler had a
// second computation in its local run queue, and a goroutine woken by the
// network poller (a new request, a cheap one included) waited in the global
// queue, which a P reads only every 61st schedule when it has local work:
// with 512 directions offered, a one-point elevation's p99 was 65–75 ms
// with two per core and 34–36 ms with one. Plain directions at 4 clients
// run as fast either way, and as without a limit.
//
// The queue's length is a bound on memory, not on time: QueueTimeout bounds
// the wait, so 64 clients of two-point directions (a millisecond each) wait
// a few tens of milliseconds rather than being shed.
const (
	DefaultPerCore      = 1
	DefaultQueuePerSlot = 64
	DefaultQueueTimeout = 500 * time.Millisecond
)

// admitter is Admission at work. Safe for concurrent use.
type admitter struct {
	slots   chan struct{} // a token per running computation; nil: no limit
	waiting atomic.Int64
	queue   int64
	timeout time.Duration
}

func newAdmitter(a Admission) *admitter {
	if a.PerCore < 0 {
		return &admitter{}
	}
	if a.PerCore == 0 {
		a.PerCore = DefaultPerCore
	}
	if a.Cores <= 0 {
		a.Cores = runtime.GOMAXPROCS(0)
	}
	slots := a.PerCore * a.Cores
	if a.Queue <= 0 {
		a.Queue = DefaultQueuePerSlot * slots
	}
	if a.QueueTimeout <= 0 {
		a.QueueTimeout = DefaultQueueTimeout
	}
	return &admitter{slots: make(chan struct{}, slots), queue: int64(a.Queue), timeout: a.QueueTimeout}
}

// acquire takes a slot, waiting in the queue until deadline or the queue
// timeout, whichever comes first. It returns the release func and whether
// the request waited, or a failure to answer (503 with Retry-After).
func (a *admitter) acquire(deadline time.Time) (release func(), waited bool, f *failure) {
	if a.slots == nil {
		return func() {}, false, nil
	}
	select {
	case a.slots <- struct{}{}:
		return a.release, false, nil
	default:
	}
	if a.waiting.Add(1) > a.queue {
		a.waiting.Add(-1)
		return nil, false, a.shed("and the queue is full")
	}
	defer a.waiting.Add(-1)
	wait := min(a.timeout, time.Until(deadline))
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case a.slots <- struct{}{}:
		return a.release, true, nil
	case <-t.C:
		return nil, true, a.shed(fmt.Sprintf("and none was free within %v", wait.Round(time.Millisecond)))
	}
}

func (a *admitter) release() { <-a.slots }

// full reports whether a request would be shed at once: every slot busy and
// the queue full. compute asks before authenticating and decoding, so that a
// flood of requests beyond the limit costs as little as possible.
func (a *admitter) full() bool {
	return a.slots != nil && len(a.slots) == cap(a.slots) && a.waiting.Load() >= a.queue
}

// shed is the answer to a request turned away; it holds no credits.
func (a *admitter) shed(why string) *failure {
	return &failure{kind: KindServiceUnavailable, retryAfter: 1,
		detail: fmt.Sprintf("the server is at capacity: all %d computation slots are busy %s; this request costs nothing, retry after 1 s", cap(a.slots), why)}
}
