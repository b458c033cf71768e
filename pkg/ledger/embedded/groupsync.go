package embedded

import (
	"fmt"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// The committer's syncing: which caller leads the next fdatasync, how syncs
// are acknowledged in the order they started, and the background syncer
// (see committer in groupcommit.go for the whole).

// syncDepth is how many journal fdatasyncs may be in flight at once. With
// one, a commit whose record was written while a sync ran waits for that
// sync and then its own; with two, it starts its own at once. Under real
// load more are worse: every sync costs CPU (writeback, a virtio kick,
// interrupts and a thread wake-up), and with fewer slots the commits that
// arrive meanwhile share larger syncs. Metered HTTP on Andorra, alternated
// (docs/benchmarks-history.md, "wrk, and two syncs in flight"): at 64 clients 2 slots
// beat 8 in 8 of 9 pairs (median +6 %), and 1 slot lost what 2 gained.
const syncDepth = 2

// backgroundSyncInterval is how far apart the syncer's fdatasyncs start
// (SyncBackground). Each sync costs CPU (a virtio kick, interrupts, thread
// wake-ups): syncing again as soon as one ended cost metered directions at
// 4 clients a fifth of their throughput (5,400 against 7,000 req/s with
// syncs 1 ms apart, the same as not syncing at all; 5 ms apart served the
// same as 1 ms). Under full load the syncs still cost: profiled at 64
// clients the syncer took 2.9 % of mapd's CPU with syncs 1 ms apart, 2.1 %
// 2 ms apart and 1.4 % 5 ms apart. A power loss can lose what was written
// since the last sync began, about this interval plus one sync: at 5 ms,
// a few dozen requests answered and not charged, never one charged
// wrongly.
const backgroundSyncInterval = 5 * time.Millisecond

// syncer makes written records durable (SyncBackground): while there are
// any, it syncs, backgroundSyncInterval apart. It returns when close
// closes kick.
func (c *committer) syncer() {
	defer close(c.syncerDone)
	var last time.Time
	for range c.kick {
		time.Sleep(backgroundSyncInterval - time.Since(last))
		c.mu.Lock()
		if c.broken == nil && c.covered() < c.written && c.inFlight() < syncDepth {
			last = time.Now()
			c.syncLocked()
		}
		c.mu.Unlock()
	}
}

// wait returns once the job's record is durable, or why it is not. It
// does not watch a context: once sent, the record is durable or failed
// within a few syncs, and the caller must learn which.
func (job *commitJob) wait() error {
	c := job.c
	for {
		if job.settled() {
			return job.err
		}
		c.mu.Lock()
		if c.shouldLead(job) {
			c.syncLocked()
			c.mu.Unlock()
			continue
		}
		job.waiting = true
		c.mu.Unlock()
		select {
		case <-job.done:
		case <-job.nudge:
		}
	}
}

// shouldLead reports whether job's caller should start a sync: its record
// is written and not yet acknowledged, no sync started since covers it,
// and a slot is free. Call with c.mu held.
func (c *committer) shouldLead(job *commitJob) bool {
	return c.broken == nil && job.end > c.covered() && c.inFlight() < syncDepth && !job.settled()
}

// settled reports whether the job was acknowledged or failed. A charge
// acknowledged by its write (SyncBackground) between wait's first look and
// its lock must not lead a sync it does not need.
func (job *commitJob) settled() bool {
	select {
	case <-job.done:
		return true
	default:
		return false
	}
}

// covered is the position below which every record is acknowledged or
// covered by a sync already started. Call with c.mu held.
func (c *committer) covered() int64 {
	if n := len(c.syncs); n > 0 {
		return c.syncs[n-1].target
	}
	return c.synced
}

// inFlight counts syncs that have not returned. Call with c.mu held.
func (c *committer) inFlight() int {
	n := 0
	for _, s := range c.syncs {
		if !s.finished {
			n++
		}
	}
	return n
}

// syncLocked runs one fdatasync covering everything written so far and
// acknowledges what it can. Call with c.mu held; it is released during
// the sync and held again on return.
func (c *committer) syncLocked() {
	run := &syncRun{target: c.written}
	c.syncs = append(c.syncs, run)
	c.checkInvariants()
	c.mu.Unlock()
	err := datasync(c.j.f)
	c.mu.Lock()
	run.finished, run.err = true, err
	c.acknowledge()
}

// acknowledge settles the finished syncs at the head of the list, in
// order, then nudges the first waiter no sync covers, if a slot is free.
// Call with c.mu held.
func (c *committer) acknowledge() {
	for len(c.syncs) > 0 && c.syncs[0].finished {
		run := c.syncs[0]
		c.syncs = c.syncs[1:]
		if run.err != nil {
			c.breakLocked(fmt.Errorf("%w: syncing journal %s: %w", ledger.ErrUnavailable, c.j.path, run.err))
		}
		if c.broken != nil {
			continue
		}
		n := 0
		for n < len(c.unsynced) && c.unsynced[n].end <= run.target {
			close(c.unsynced[n].done)
			n++
		}
		c.unsynced = c.unsynced[n:]
		c.synced = run.target
		c.checkInvariants()
	}
	c.settled.Broadcast()
	c.nudgeNext()
	if c.background && c.broken == nil && c.covered() < c.written {
		shared.Signal(c.kick) // the syncer may have skipped a write while both slots were busy
	}
}

// nudgeNext wakes the first waiter whose record no sync covers, so that
// it starts one. Call with c.mu held.
func (c *committer) nudgeNext() {
	if c.broken != nil || c.inFlight() >= syncDepth {
		return
	}
	covered := c.covered()
	for _, job := range c.unsynced {
		if job.end > covered && job.waiting {
			shared.Signal(job.nudge)
			return
		}
	}
}
