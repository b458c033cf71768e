package ledger

import (
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// syncDepth is how many journal fdatasyncs may be in flight at once. With
// one, a commit whose record was written while a sync ran waits for that
// sync and then its own; with two, it starts its own at once. Under real
// load more are worse: every sync costs CPU (writeback, a virtio kick,
// interrupts and a thread wake-up), and with fewer slots the commits that
// arrive meanwhile share larger syncs. Metered HTTP on Andorra, alternated
// (BENCHMARKS.md, "wrk, and two syncs in flight"): at 64 clients 2 slots
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

// committer is the embedded store's group commit into the journal, driven
// by the requests themselves rather than by a goroutine of its own.
//
// Writing. Reserve queues its charge record with send. If nobody is
// writing, the caller writes everything queued (its record and any that
// arrive meanwhile) at the journal's end in one write per batch, after
// checking request ids for duplicates; otherwise it leaves its record to
// the caller that is writing. A write is a copy into the page cache: once
// it returns, the record survives a crash of the process.
//
// Syncing. With SyncCommit, Commit (wait) returns once its record is
// durable. A waiter whose record no fdatasync in flight covers starts one
// itself, if fewer than syncDepth are in flight, and every record written
// before that sync started rides on it; other waiters sleep until a sync
// acknowledges their record or until they are nudged to start the next
// one. With SyncBackground, a record is acknowledged once written (a
// charge's Commit returns at once) and a goroutine of the committer syncs
// whatever was written, one sync after another; cancellations still wait
// for their sync as above.
//
// Why no goroutine of its own: on these two virtual cores each hand-off
// between goroutines costs a thread wake-up (a futex and an interrupt), and
// under load the committer goroutine took 121 µs (median) to pick a record
// up, as long as the routing the sync was meant to overlap (BENCHMARKS.md,
// "Requests that commit themselves").
//
// Order. Syncs are acknowledged in the order they started: a sync's
// records are acknowledged only once it and every earlier sync succeeded,
// so an acknowledged record never sits after a lost one.
//
// A charge reaches bbolt only when its request commits (charge hands it to
// the applier); a released one never does (void), its charge and
// cancellation staying in the journal for replay. Until then it is open,
// and when the journal starts over, open charges are written again at the
// start of the new epoch (see wrap). A failed write or sync breaks the committer: every
// unacknowledged record and every later one fails with ErrUnavailable until
// the ledger is reopened (after a failed fdatasync the kernel may have
// dropped the data, and retrying proves nothing). Such a record may still
// be on disk and be replayed then, like a PostgreSQL commit whose
// connection broke: LookupUsage tells.
type committer struct {
	j        *journal
	db       *bolt.DB
	apply    *applier
	maxBatch int
	// background: records are acknowledged when written (SyncBackground);
	// the syncer goroutine, woken through kick, makes them durable.
	background bool
	kick       chan struct{} // capacity 1
	syncerDone chan struct{}
	// The writer's: the batch's encoding, and where each record ends in it.
	buf  []byte
	ends []int

	mu       sync.Mutex
	settled  *sync.Cond              // a sync was acknowledged, or writing ended
	queue    []*commitJob            // sent, not yet written
	writing  bool                    // a caller is writing the queue
	unsynced []*commitJob            // written, waiting for a sync to be acknowledged, in journal order
	open     map[*commitJob]struct{} // charges written and neither committed nor released
	syncs    []*syncRun              // started, not yet acknowledged, in start order
	written  int64                   // journal position below which every record is written
	synced   int64                   // journal position below which every record is durable
	closed   bool
	broken   error
}

// A journal position counts bytes written since the store was opened,
// across the journal's wraps, so that positions only grow.

// syncRun is one fdatasync: it covers every record written before it began.
type syncRun struct {
	target   int64
	finished bool
	err      error
}

// commitJob is one record on its way to the disk.
type commitJob struct {
	c   *committer
	rec journalRecord
	// Guarded by c.mu:
	end     int64 // journal position after the record; 0 until written
	waiting bool  // its caller is in wait and may be nudged
	claimed bool  // its request id is in the applier's pending set
	// Set before done is closed:
	err   error
	done  chan struct{} // closed once acknowledged or failed
	nudge chan struct{} // capacity 1: look again whether to start a sync
}

func newCommitter(j *journal, db *bolt.DB, apply *applier, maxBatch int, mode Sync) *committer {
	c := &committer{j: j, db: db, apply: apply, maxBatch: maxBatch, background: mode == SyncBackground,
		open: make(map[*commitJob]struct{})}
	c.settled = sync.NewCond(&c.mu)
	if c.background {
		c.kick, c.syncerDone = make(chan struct{}, 1), make(chan struct{})
		go c.syncer()
	}
	return c
}

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
		err := fmt.Errorf("%w: ledger is closed", ErrUnavailable)
		fail([]*commitJob{job}, err)
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
			c.breakLocked(fmt.Errorf("%w: syncing journal %s: %v", ErrUnavailable, c.j.path, run.err))
		}
		if c.broken != nil {
			continue
		}
		n := 0
		for n < len(c.unsynced) && c.unsynced[n].end <= run.target {
			n++
		}
		c.complete(c.unsynced[:n])
		c.unsynced = c.unsynced[n:]
		c.synced = run.target
	}
	c.settled.Broadcast()
	c.nudgeNext()
	if c.background && c.broken == nil && c.covered() < c.written {
		signal(c.kick) // the syncer may have skipped a write while both slots were busy
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
			signal(job.nudge)
			return
		}
	}
}

// complete acknowledges records: it wakes their callers. Call with c.mu
// held.
func (c *committer) complete(jobs []*commitJob) {
	for _, job := range jobs {
		close(job.done)
	}
}

// charge settles a charge its request committed: the applier writes it to
// bbolt, and readers that follow (GetAccount, LookupUsage) find it. While
// wrap rewrites open charges it holds c.mu, so charge, and the 200 after
// it, wait until the charge's new copy is written (or synced).
func (c *committer) charge(job *commitJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.open, job) // in one step with the hand-over: a wrap carries it, or applies it
	c.apply.add(job.rec)
}

// void settles a charge that will not be applied: its request was
// released, or its record failed. Its request id is free again.
func (c *committer) void(job *commitJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.open, job)
	if job.claimed {
		job.claimed = false
		c.apply.unclaim(job.rec.RequestID)
	}
}

// breakLocked records the committer's first failure and fails every
// record not yet acknowledged. Call with c.mu held.
func (c *committer) breakLocked(err error) {
	if c.broken == nil {
		c.broken = err
	}
	c.abandon(c.unsynced, c.broken)
	c.unsynced = nil
}

// abandon fails jobs whose records will never be applied and frees their
// request ids.
func (c *committer) abandon(jobs []*commitJob, err error) {
	ids := make([]string, 0, len(jobs))
	for _, job := range jobs {
		if job.claimed {
			job.claimed = false
			ids = append(ids, job.rec.RequestID)
		}
	}
	c.apply.unclaim(ids...)
	fail(jobs, err)
}

// fail completes jobs that will not be acknowledged with err.
func fail(jobs []*commitJob, err error) {
	for _, job := range jobs {
		job.err = err
		close(job.done)
	}
}

func (c *committer) brokenErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}

// write journals a batch: duplicates are refused at once, the rest go out
// in as few writes as the journal's free space allows.
func (c *committer) write(batch []*commitJob) {
	if err := c.brokenErr(); err != nil {
		fail(batch, err)
		return
	}
	jobs := c.dedup(batch)
	for len(jobs) > 0 {
		n, err := c.encode(jobs)
		if err == nil && n == 0 && c.j.off == 0 {
			err = fmt.Errorf("%w: the charge of request %s does not fit in journal %s", ErrUnavailable, jobs[0].rec.RequestID, c.j.path)
		}
		if err == nil && n == 0 { // the journal is full
			err = c.wrap()
			if err == nil {
				continue
			}
		}
		if err == nil {
			_, err = c.j.f.WriteAt(c.buf, c.j.off)
		}
		c.mu.Lock()
		if err != nil {
			c.breakLocked(fmt.Errorf("%w: writing %d charges to journal %s: %v", ErrUnavailable, len(jobs), c.j.path, err))
			c.abandon(jobs, c.broken)
			c.mu.Unlock()
			return
		}
		c.appendWritten(jobs[:n])
		c.mu.Unlock()
		c.j.readAhead()
		jobs = jobs[n:]
	}
}

// appendWritten records that jobs' records, encoded in c.buf, were written
// at the journal's end. With SyncCommit they wait for a sync (and callers
// already waiting are nudged to start one); with SyncBackground charges
// are acknowledged now, cancellations wait, and the syncer is woken. Call
// with c.mu held.
func (c *committer) appendWritten(jobs []*commitJob) {
	c.j.off += int64(len(c.buf))
	for i, job := range jobs {
		job.end = c.written + int64(c.ends[i])
	}
	c.written += int64(len(c.buf))
	for _, job := range jobs {
		if !job.rec.Cancel {
			c.open[job] = struct{}{}
		}
	}
	if !c.background {
		c.unsynced = append(c.unsynced, jobs...)
		for _, job := range jobs {
			if job.waiting {
				signal(job.nudge)
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
	signal(c.kick)
}

// encode encodes into c.buf the longest prefix of jobs that fits in the
// journal's free space; n == 0 means not even the first one fits.
func (c *committer) encode(jobs []*commitJob) (n int, err error) {
	free := c.j.size - c.j.off
	buf, ends := c.buf[:0], c.ends[:0]
	for _, job := range jobs {
		next, err := appendRecord(buf, c.j.epoch, job.rec)
		if err != nil {
			return 0, err
		}
		if int64(len(next)) > free {
			break
		}
		buf, n = next, n+1
		ends = append(ends, len(buf))
	}
	c.buf, c.ends = buf, ends
	return n, nil
}

// close writes what is queued, makes every written record durable,
// refuses new records and waits until nothing is in flight. Every
// acknowledged record is then with the applier.
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
	c.drainSyncsLocked()
	c.mu.Unlock()
	if c.background {
		close(c.kick)
		<-c.syncerDone
	}
}

// drainSyncsLocked returns once every written record is durable and
// acknowledged, or the committer is broken, syncing them itself if no sync
// covers them. Call with c.mu held.
func (c *committer) drainSyncsLocked() {
	for c.broken == nil && (c.synced < c.written || len(c.syncs) > 0) {
		if c.covered() < c.written {
			c.syncLocked()
		} else {
			c.settled.Wait()
		}
	}
}

// dedup refuses jobs whose request id is already charged: in bbolt, in the
// journal on its way there, or earlier in this batch. The pending set is
// checked before bbolt because an id leaves it only after its bbolt
// transaction committed, so an id missed by the first check is found by
// the second. bbolt is read only for ids that are not newer than every id
// it holds: never for the server's, which grow with time (a read
// transaction per batch was a tenth of the metering's CPU).
func (c *committer) dedup(batch []*commitJob) []*commitJob {
	fresh := make([]*commitJob, 0, len(batch))
	var cancels []*commitJob // they void a charge of the same id: no check
	look := false
	for _, job := range batch {
		if job.rec.Cancel {
			cancels = append(cancels, job)
			continue
		}
		ok, inBolt := c.apply.claim(job.rec.RequestID)
		if ok {
			job.claimed = true
			fresh = append(fresh, job)
			look = look || inBolt
		} else {
			c.refuse(job)
		}
	}
	if !look {
		return append(fresh, cancels...)
	}
	tx, err := c.db.Begin(false)
	if err != nil {
		c.abandon(append(fresh, cancels...), fmt.Errorf("%w: checking request ids: %v", ErrUnavailable, err))
		return nil
	}
	defer tx.Rollback()
	usage := tx.Bucket([]byte(bucketUsage))
	kept := fresh[:0]
	for _, job := range fresh {
		if usage.Get([]byte(job.rec.RequestID)) != nil {
			job.claimed = false
			c.apply.unclaim(job.rec.RequestID)
			c.refuse(job)
		} else {
			kept = append(kept, job)
		}
	}
	// A cancellation is sent only once its charge is durable, so the two
	// never share a batch and their order in the journal is kept.
	return append(kept, cancels...)
}

func (c *committer) refuse(job *commitJob) { fail([]*commitJob{job}, ErrDuplicateRequest) }

// wrap starts the journal over: it makes everything written durable,
// applies every committed charge, raises the epoch in a synced bbolt
// transaction (which retires every record written so far), and writes the
// open charges again at the start of the new epoch, synced, so that a
// crash still finds the charges of the requests in flight. It holds c.mu
// from the epoch's change until that copy is durable, so no charge
// settles, and no 200 leaves, in between. Only the writer calls it, so
// nothing else is written meanwhile.
func (c *committer) wrap() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drainSyncsLocked()
	if c.broken != nil {
		return c.broken
	}
	if err := c.apply.barrier(); err != nil {
		return err
	}
	err := c.db.Update(func(tx *bolt.Tx) error { return writeJournalMeta(tx, c.j.epoch+1, true) })
	if err != nil {
		return fmt.Errorf("%w: starting journal %s over: %v", ErrUnavailable, c.j.path, err)
	}
	c.j.epoch++
	c.j.off = 0
	if err := c.carryOpen(); err != nil {
		c.breakLocked(fmt.Errorf("%w: carrying %d open charges into journal %s: %v", ErrUnavailable, len(c.open), c.j.path, err))
		return c.broken
	}
	return nil
}

// carryOpen writes the open charges at the start of the new epoch and
// syncs them. Call with c.mu held, from wrap.
func (c *committer) carryOpen() error {
	if len(c.open) == 0 {
		return nil
	}
	jobs := make([]*commitJob, 0, len(c.open))
	for job := range c.open {
		jobs = append(jobs, job)
	}
	n, err := c.encode(jobs)
	if err != nil {
		return err
	}
	if n < len(jobs) {
		return fmt.Errorf("%d open charges do not fit", len(jobs))
	}
	if _, err := c.j.f.WriteAt(c.buf, 0); err != nil {
		return err
	}
	if err := datasync(c.j.f); err != nil {
		return err
	}
	c.j.off = int64(len(c.buf))
	c.written += int64(len(c.buf))
	c.synced = c.written
	return nil
}
