package ledger

import (
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// syncDepth is how many journal fdatasyncs may be in flight at once. With
// one, a commit that arrives while a group is syncing waits for that sync
// and then its own; with several, its group starts syncing at once. Alone,
// the disk serves concurrent syncs nearly as fast as one, and BenchmarkMeter
// (no routing beside it) likes 4 to 8 slots (0.69 ms a charge at 4 in flight
// with 1 slot, 0.56 with 2, 0.31 with 4 or 8). Under real load two are
// better: every sync costs CPU (writeback, a virtio kick, interrupts and
// thread wake-ups, about 7 % of a metered mapd's CPU at 8 slots), and with
// fewer slots the commits that arrive meanwhile form larger groups.
// Metered HTTP on Andorra, alternated (BENCHMARKS.md, "wrk, and two syncs
// in flight"): at 64 clients 2 slots beat 8 in 8 of 9 pairs (median +6 %),
// and 1 slot lost what 2 gained; at 4 clients, where each request waits
// for its own sync, 1, 2 and 8 slots served the same within noise.
const syncDepth = 2

// committer is the embedded store's pipelined group commit into the
// journal. Callers queue charge records; one goroutine takes everything
// queued so far, checks request ids for duplicates, writes the group's
// records at the journal's end in one write, and starts its fdatasync
// without waiting for the previous group's to finish. Groups complete in
// journal order: a group is acknowledged (its callers woken, its records
// handed to the applier) only after its own sync and every earlier group's
// succeeded, so an acknowledged record never sits after a lost one.
//
// A failed write or sync breaks the committer: that group and every later
// one fail with ErrUnavailable until the ledger is reopened (after a failed
// fdatasync the kernel may have dropped the data, and retrying proves
// nothing). Such a failed group may still be on disk and be replayed then,
// like a PostgreSQL commit whose connection broke: LookupUsage tells.
type committer struct {
	j        *journal
	db       *bolt.DB
	apply    *applier
	maxBatch int

	mu     sync.Mutex
	queue  []*commitJob
	closed bool
	broken error

	wake   chan struct{} // capacity 1: "the queue may be non-empty"
	stop   chan struct{} // closed by close
	exited chan struct{} // closed when run returns

	// Owned by run's goroutine:
	slots    chan struct{} // one token per sync in flight
	lastDone chan struct{} // closed when the latest group has completed
}

type commitJob struct {
	rec  journalRecord
	err  error
	done chan struct{}
}

func newCommitter(j *journal, db *bolt.DB, apply *applier, maxBatch int) *committer {
	c := &committer{j: j, db: db, apply: apply, maxBatch: maxBatch,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), exited: make(chan struct{}),
		slots: make(chan struct{}, syncDepth), lastDone: make(chan struct{})}
	close(c.lastDone)
	go c.run()
	return c
}

// submit queues a record and waits until it is durable.
func (c *committer) submit(rec journalRecord) error {
	job, err := c.enqueue(rec)
	if err != nil {
		return err
	}
	return job.wait()
}

// enqueue queues a record without waiting: the caller goes on with other
// work while the group it joins is written and synced, and learns the
// outcome from wait. After close it refuses the record and queues nothing.
func (c *committer) enqueue(rec journalRecord) (*commitJob, error) {
	job := &commitJob{rec: rec, done: make(chan struct{})}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("%w: ledger is closed", ErrUnavailable)
	}
	c.queue = append(c.queue, job)
	c.mu.Unlock()
	signal(c.wake)
	return job, nil
}

// wait returns once the job's record is durable, or why it is not. It does
// not watch a context: once queued, the write completes within a few syncs
// and the caller must learn its outcome.
func (job *commitJob) wait() error {
	<-job.done
	return job.err
}

func (c *committer) run() {
	defer close(c.exited)
	for {
		select {
		case <-c.wake:
		case <-c.stop:
		}
		c.drain()
		select {
		case <-c.stop:
			// closed was set before stop, so this last drain empties the
			// queue for good (a job may have come after the one above).
			c.drain()
			<-c.lastDone
			return
		default:
		}
	}
}

// drain writes everything queued.
func (c *committer) drain() {
	for batch := c.take(); len(batch) > 0; batch = c.take() {
		c.write(batch)
	}
}

// take removes up to maxBatch jobs from the queue.
func (c *committer) take() []*commitJob {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := min(len(c.queue), c.maxBatch)
	batch := c.queue[:n:n]
	c.queue = c.queue[n:]
	if len(c.queue) == 0 {
		c.queue = nil // let the backing array go
	}
	return batch
}

// write journals a batch: duplicates are refused at once, the rest go out
// in as few groups as the journal's free space allows.
func (c *committer) write(batch []*commitJob) {
	if err := c.brokenErr(); err != nil {
		fail(batch, err)
		return
	}
	jobs := c.dedup(batch)
	for len(jobs) > 0 {
		buf, n, err := c.encode(jobs)
		if err == nil && n == 0 && c.j.off == 0 {
			err = fmt.Errorf("%w: the charge of request %s does not fit in journal %s", ErrUnavailable, jobs[0].rec.RequestID, c.j.path)
		}
		if err == nil && n == 0 { // the journal is full
			err = c.wrap()
			if err == nil {
				continue
			}
		}
		if err != nil {
			c.breakWith(err)
			c.finish(jobs, c.brokenErr())
			return
		}
		c.group(jobs[:n], buf)
		jobs = jobs[n:]
	}
}

// encode encodes the longest prefix of jobs that fits in the journal's free
// space; n == 0 means not even the first one fits.
func (c *committer) encode(jobs []*commitJob) (buf []byte, n int, err error) {
	free := c.j.size - c.j.off
	for _, job := range jobs {
		next, err := appendRecord(buf, c.j.epoch, job.rec)
		if err != nil {
			return nil, 0, err
		}
		if int64(len(next)) > free {
			break
		}
		buf, n = next, n+1
	}
	return buf, n, nil
}

// group writes one group's records and starts their sync; completion runs
// on its own goroutine, after the previous group's.
func (c *committer) group(jobs []*commitJob, buf []byte) {
	_, werr := c.j.f.WriteAt(buf, c.j.off)
	c.j.off += int64(len(buf))
	c.slots <- struct{}{}
	prev, done := c.lastDone, make(chan struct{})
	c.lastDone = done
	go func() {
		err := werr
		if err == nil {
			err = datasync(c.j.f)
		}
		<-prev
		if err != nil {
			c.breakWith(fmt.Errorf("%w: writing %d charges to journal %s: %v", ErrUnavailable, len(jobs), c.j.path, err))
		}
		c.finish(jobs, c.brokenErr())
		close(done)
		<-c.slots
	}()
}

// finish completes jobs: with err, they failed and will not be applied;
// without, their records go to the applier before their callers wake, so
// a reader that follows a Commit finds its charge.
func (c *committer) finish(jobs []*commitJob, err error) {
	if err != nil {
		ids := make([]string, 0, len(jobs))
		for _, job := range jobs {
			if !job.rec.Cancel { // a cancellation never claimed its id
				ids = append(ids, job.rec.RequestID)
			}
		}
		c.apply.unclaim(ids...)
		fail(jobs, err)
		return
	}
	recs := make([]journalRecord, len(jobs))
	for i, job := range jobs {
		recs[i] = job.rec
	}
	c.apply.add(recs)
	for _, job := range jobs {
		close(job.done)
	}
}

// fail completes jobs that wrote nothing with err.
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

func (c *committer) breakWith(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken == nil {
		c.broken = err
	}
}

// close writes what is queued, waits for its syncs, refuses new jobs and
// stops the goroutine. Every acknowledged record is then with the applier.
func (c *committer) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	close(c.stop)
	<-c.exited
}

// dedup refuses jobs whose request id is already charged: in bbolt, in the
// journal on its way there, or earlier in this batch. The pending set is
// checked before bbolt because an id leaves it only after its bbolt
// transaction committed, so an id missed by the first check is found by
// the second.
func (c *committer) dedup(batch []*commitJob) []*commitJob {
	fresh := make([]*commitJob, 0, len(batch))
	var cancels []*commitJob // they void a charge of the same id: no check
	for _, job := range batch {
		if job.rec.Cancel {
			cancels = append(cancels, job)
			continue
		}
		if c.apply.claim(job.rec.RequestID) {
			fresh = append(fresh, job)
		} else {
			c.refuse(job)
		}
	}
	tx, err := c.db.Begin(false)
	if err != nil {
		c.finish(append(fresh, cancels...), fmt.Errorf("%w: checking request ids: %v", ErrUnavailable, err))
		return nil
	}
	defer tx.Rollback()
	usage := tx.Bucket([]byte(bucketUsage))
	kept := fresh[:0]
	for _, job := range fresh {
		if usage.Get([]byte(job.rec.RequestID)) != nil {
			c.apply.unclaim(job.rec.RequestID)
			c.refuse(job)
		} else {
			kept = append(kept, job)
		}
	}
	// A cancellation is queued only once its charge is durable, so the two
	// never share a batch and their order in the journal is kept.
	return append(kept, cancels...)
}

func (c *committer) refuse(job *commitJob) { fail([]*commitJob{job}, ErrDuplicateRequest) }

// wrap starts the journal over once every record in it is in bbolt: it
// waits for the groups in flight, applies everything, and raises the epoch
// in a synced bbolt transaction, which retires every record written so far.
func (c *committer) wrap() error {
	<-c.lastDone
	if err := c.brokenErr(); err != nil {
		return err
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
	return nil
}
