package api

import (
	"fmt"
	"runtime"
	"sync"
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

// admitter is Admission at work (the fair queue in fairqueue.go). Safe
// for concurrent use.
type admitter struct {
	limit      int   // computation slots; 0: no limit
	queue      int64 // requests that may wait, all accounts together
	perAccount int   // requests one account may have waiting
	timeout    time.Duration
	waiting    atomic.Int64 // for full(), read without the lock

	mu         sync.Mutex
	running    int
	lowRunning int                     // of running: free surfaces (AdmitLow)
	accounts   map[string]*fairAccount // accounts with requests running or waiting
	vnow       int64                   // virtual time: the tag of the last request started
	recent     map[string]time.Time    // accounts admitted in the last activeWindow
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
	return &admitter{limit: slots, queue: int64(a.Queue), perAccount: max(1, a.Queue/4), timeout: a.QueueTimeout,
		accounts: map[string]*fairAccount{}, recent: map[string]time.Time{}}
}

// full reports whether a request would be shed at once: every slot busy and
// the queue full. compute asks before authenticating and decoding, so that a
// flood of requests beyond the limit costs as little as possible.
func (a *admitter) full() bool {
	return a.limit > 0 && a.waiting.Load() >= a.queue
}

// shed is the answer to a request turned away; it holds no credits.
func (a *admitter) shed(why string) *failure {
	return &failure{kind: KindServiceUnavailable, retryAfter: 1,
		detail: fmt.Sprintf("the server is at capacity: all %d computation slots are busy %s; this request costs nothing, retry after 1 s", a.limit, why)}
}
