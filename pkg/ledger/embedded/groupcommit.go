package embedded

import (
	"errors"
	"fmt"
	"sync"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// committer is the embedded store's group commit into the journal: it
// batches records into writes and makes them durable with shared
// fdatasyncs. It is driven by the requests themselves rather than by a
// goroutine of its own. What a record means (a charge or a cancellation,
// open or settled, a duplicate or not) is the store's business, and so is
// starting the journal over (hooks).
//
// Writing. Reserve queues its charge record with send. If nobody is
// writing, the caller writes everything queued (its record and any that
// arrive meanwhile) at the journal's end in one write per batch; otherwise
// it leaves its record to the caller that is writing. A write is a copy
// into the page cache: once it returns, the record survives a crash of the
// process.
//
// Syncing. With SyncCommit, Commit (wait) returns once its record is
// durable. A waiter whose record no fdatasync in flight covers starts one
// itself, if fewer than syncDepth are in flight, and every record written
// before that sync started rides on it; other waiters sleep until a sync
// acknowledges their record or until they are nudged to start the next
// one. With SyncBackground, a charge is acknowledged once written (its
// Commit returns at once) and a goroutine of the committer syncs whatever
// was written, one sync after another; cancellations still wait for their
// sync as above.
//
// Why no goroutine of its own: on these two virtual cores each hand-off
// between goroutines costs a thread wake-up (a futex and an interrupt), and
// under load the committer goroutine took 121 µs (median) to pick a record
// up, as long as the routing the sync was meant to overlap (docs/benchmarks-history.md,
// "Requests that commit themselves").
//
// Order. Syncs are acknowledged in the order they started: a sync's
// records are acknowledged only once it and every earlier sync succeeded,
// so an acknowledged record never sits after a lost one. These are the
// invariants checkInvariants asserts in builds with the invariants tag.
//
// A failed write or sync breaks the committer: every unacknowledged record
// and every later one fails with ErrUnavailable (after a failed fdatasync
// the kernel may have dropped the data, and retrying the sync proves
// nothing). Such a record may still be on disk and be replayed by a
// reopen, like a PostgreSQL commit whose connection broke: LookupUsage
// tells. repair mends it by starting the journal over, which leaves those
// records in a retired epoch and writes the open charges again, synced.
type committer struct {
	j        *journal
	maxBatch int
	hooks    committerHooks
	// background: charges are acknowledged when written (SyncBackground);
	// the syncer goroutine, woken through kick, makes them durable.
	background bool
	kick       chan struct{} // capacity 1
	syncerDone chan struct{}

	mu       sync.Mutex
	settled  *sync.Cond   // a sync was acknowledged, or writing ended
	queue    []*commitJob // sent, not yet written
	writing  bool         // a caller is writing the queue
	unsynced []*commitJob // written, waiting for a sync to be acknowledged, in journal order
	syncs    []*syncRun   // started, not yet acknowledged, in start order
	written  int64        // journal position below which every record is written
	synced   int64        // journal position below which every record is durable
	closed   bool
	broken   error
}

// committerHooks are the store's part in the writer's work. The writer
// calls them without holding the committer's lock.
type committerHooks struct {
	// wrote is told about the jobs of each successful write before any of
	// them is acknowledged.
	wrote func(jobs []*commitJob)
	// full starts the journal over when the next record does not fit; the
	// writer retries the write after it. An error that wraps errUnchanged
	// fails the batch only; any other breaks the committer.
	full func() error
	// broke is told the committer's failure, mended that repair made it
	// whole again. They are called with the committer's lock held, in
	// order, and must not call it back.
	broke  func(error)
	mended func()
}

// errUnchanged marks a start-over that failed before it changed anything
// (bbolt could not be written, so nothing could be applied or the epoch
// raised): the batch that needed the room fails, and the next write tries
// again.
var errUnchanged = errors.New("the journal was left as it was")

// A journal position counts bytes written since the store was opened,
// across the journal's start-overs, so that positions only grow.

// commitJob is one record on its way to the disk.
type commitJob struct {
	c   *committer
	rec journalRecord
	// Guarded by c.mu:
	end     int64 // journal position after the record; 0 until written
	waiting bool  // its caller is in wait and may be nudged
	// claimed: its request id is in the applier's pending set. Owned by
	// the request's goroutine (Reserve sets it, void clears it).
	claimed bool
	// Set before done is closed:
	err   error
	done  chan struct{} // closed once acknowledged or failed
	nudge chan struct{} // capacity 1: look again whether to start a sync
}

func newCommitter(j *journal, maxBatch int, mode ledger.Sync, hooks committerHooks) *committer {
	c := &committer{j: j, maxBatch: maxBatch, hooks: hooks, background: mode == ledger.SyncBackground}
	c.settled = sync.NewCond(&c.mu)
	if c.background {
		c.kick, c.syncerDone = make(chan struct{}, 1), make(chan struct{})
		go c.syncer()
	}
	return c
}

// newJob prepares a record for send; its holder may wait on it at once.
func (c *committer) newJob(rec journalRecord) *commitJob {
	return &commitJob{c: c, rec: rec, done: make(chan struct{}), nudge: make(chan struct{}, 1)}
}

// submit journals a record and waits until it is durable.
func (c *committer) submit(rec journalRecord) error {
	job := c.newJob(rec)
	if err := c.send(job); err != nil {
		return err
	}
	return job.wait()
}

// send queues a job for writing and, unless another caller is writing,
// writes the queue. After close it refuses the job: the job fails with the
// returned error and nothing is queued.
func (c *committer) send(job *commitJob) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		err := fmt.Errorf("%w: ledger is closed", ledger.ErrUnavailable)
		job.finish(err)
		return err
	}
	c.queue = append(c.queue, job)
	if c.writing {
		c.mu.Unlock()
		return nil
	}
	c.writing = true
	c.mu.Unlock()
	c.writeQueued()
	return nil
}

// writeQueued writes batches until the queue is empty; only the caller
// that set writing runs it.
func (c *committer) writeQueued() {
	for {
		c.mu.Lock()
		n := min(len(c.queue), c.maxBatch)
		batch := c.queue[:n:n]
		c.queue = c.queue[n:]
		if len(c.queue) == 0 {
			c.queue = nil // let the backing array go
		}
		if n == 0 {
			c.writing = false
			c.settled.Broadcast()
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		c.write(batch)
	}
}

// write journals a batch in as few writes as the journal's free space
// allows, starting the journal over when it is full.
func (c *committer) write(jobs []*commitJob) {
	if err := c.brokenErr(); err != nil {
		fail(jobs, err)
		return
	}
	for len(jobs) > 0 {
		ends, err := c.j.pack(len(jobs), func(i int) *journalRecord { return &jobs[i].rec })
		if errors.Is(err, errJournalFull) {
			if err = c.hooks.full(); err == nil {
				continue
			}
			if errors.Is(err, errUnchanged) {
				fail(jobs, fmt.Errorf("%w: journal %s is full and cannot start over: %w", ledger.ErrUnavailable, c.j.path, err))
				return
			}
		}
		if err == nil {
			err = c.j.appendPacked()
		}
		if err != nil {
			c.mu.Lock()
			c.breakLocked(fmt.Errorf("%w: writing %d charges to journal %s: %w", ledger.ErrUnavailable, len(jobs), c.j.path, err))
			fail(jobs, c.broken)
			c.mu.Unlock()
			return
		}
		n := len(ends)
		c.hooks.wrote(jobs[:n])
		c.mu.Lock()
		c.appendWritten(jobs[:n], ends)
		c.mu.Unlock()
		jobs = jobs[n:]
	}
}

// appendWritten records that jobs' records, ending at ends in the write
// just made, were written at the journal's end. With SyncCommit they wait
// for a sync (and callers already waiting are nudged to start one); with
// SyncBackground charges are acknowledged now, cancellations wait, and the
// syncer is woken. Call with c.mu held.
func (c *committer) appendWritten(jobs []*commitJob, ends []int) {
	for i, job := range jobs {
		job.end = c.written + int64(ends[i])
	}
	c.written += int64(ends[len(ends)-1])
	defer c.checkInvariants()
	if !c.background {
		c.unsynced = append(c.unsynced, jobs...)
		for _, job := range jobs {
			if job.waiting {
				shared.Signal(job.nudge)
			}
		}
		return
	}
	for _, job := range jobs {
		if job.rec.Cancel {
			c.unsynced = append(c.unsynced, job)
		} else {
			close(job.done)
		}
	}
	shared.Signal(c.kick)
}

// writeSynced writes what the journal has packed and syncs it, outside the
// queue: the store's start-over carries the open charges into the new
// epoch with it. Only the writer calls it, with every earlier record
// durable (drain).
func (c *committer) writeSynced() error {
	start := c.j.off
	if err := c.j.appendPacked(); err != nil {
		return err
	}
	if err := datasync(c.j.f); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.written += c.j.off - start
	c.synced = c.written
	c.checkInvariants()
	return nil
}

// finish fails a job (or, with nil, acknowledges one that is not sent).
func (job *commitJob) finish(err error) {
	job.err = err
	close(job.done)
}

// fail completes jobs that will not be acknowledged with err.
func fail(jobs []*commitJob, err error) {
	for _, job := range jobs {
		job.finish(err)
	}
}

// breakLocked records the committer's first failure and fails every
// record not yet acknowledged. Call with c.mu held.
func (c *committer) breakLocked(err error) {
	if c.broken == nil {
		c.broken = err
		c.hooks.broke(err)
	}
	fail(c.unsynced, c.broken)
	c.unsynced = nil
}

func (c *committer) brokenErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}

// close writes what is queued, makes every written record durable,
// refuses new records and waits until nothing is in flight.
func (c *committer) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	for c.writing {
		c.settled.Wait()
	}
	c.drainLocked()
	c.mu.Unlock()
	if c.background {
		close(c.kick)
		<-c.syncerDone
	}
}

// repair starts the journal over after a failure, as the writer, once no
// sync is in flight: it syncs what was written, has every committed charge
// applied, raises the epoch and writes the open charges again, synced
// (hooks.full). If all of that succeeds the committer is whole again
// (hooks.mended); if not, it is broken again with the new failure. The
// records that failed stay failed: their requests were answered 503 and
// their charges voided.
func (c *committer) repair() error {
	c.mu.Lock()
	for c.writing || len(c.syncs) > 0 {
		c.settled.Wait()
	}
	if c.closed || c.broken == nil {
		err := c.broken
		c.mu.Unlock()
		return err
	}
	c.broken = nil
	c.writing = true
	c.mu.Unlock()
	err := c.hooks.full()
	c.mu.Lock()
	if err != nil {
		c.breakLocked(fmt.Errorf("%w: starting journal %s over after a failure: %w", ledger.ErrUnavailable, c.j.path, err))
	} else {
		c.hooks.mended()
	}
	c.mu.Unlock()
	c.writeQueued()
	return err
}

// exclusive runs fn as the writer, so that nothing is written meanwhile
// (Verify reads the journal back with it), then writes what was queued.
func (c *committer) exclusive(fn func()) {
	c.mu.Lock()
	for c.writing {
		c.settled.Wait()
	}
	c.writing = true
	c.mu.Unlock()
	fn()
	c.writeQueued()
}

// drain returns once every written record is durable and acknowledged,
// or why not; the store's start-over calls it, as the writer, so that no
// record is written meanwhile.
func (c *committer) drain() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drainLocked()
	return c.broken
}

// drainLocked returns once every written record is durable and
// acknowledged, or the committer is broken, syncing them itself if no sync
// covers them. Call with c.mu held.
func (c *committer) drainLocked() {
	for c.broken == nil && (c.synced < c.written || len(c.syncs) > 0) {
		if c.covered() < c.written {
			c.syncLocked()
		} else {
			c.settled.Wait()
		}
	}
}

// syncRun is one fdatasync: it covers every record written before it began.
type syncRun struct {
	target   int64
	finished bool
	err      error
}
