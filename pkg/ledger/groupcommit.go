package ledger

import (
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// committer is the embedded store's group commit. bbolt fsyncs on every
// transaction (a few milliseconds), which would cap the server at a few
// hundred charges per second if each Commit had its own transaction. Instead
// callers queue their writes and one goroutine writes everything queued so
// far in a single transaction and a single fsync, then wakes every caller of
// that batch. There is no timer: while one batch is being synced the next
// one accumulates, so batches grow with load and an idle ledger syncs each
// commit at once.
//
// Each apply function runs inside the shared transaction and must either
// write nothing and return an error (only its caller sees the error) or
// write and return nil. Account records go through the batch's cache
// (batchAccounts), so a batch decodes and encodes each account once however
// many charges it holds: the committer is one goroutine, and this is most of
// its work. If the transaction itself fails, every caller of the batch gets
// an error wrapping ErrUnavailable and nothing was written.
type committer struct {
	db       *bolt.DB
	maxBatch int

	mu     sync.Mutex
	queue  []*commitJob
	closed bool

	wake   chan struct{} // capacity 1: "the queue may be non-empty"
	stop   chan struct{} // closed by close
	exited chan struct{} // closed when run returns
}

type commitJob struct {
	apply func(*bolt.Tx, *batchAccounts) error
	err   error
	done  chan struct{}
}

func newCommitter(db *bolt.DB, maxBatch int) *committer {
	c := &committer{
		db:       db,
		maxBatch: maxBatch,
		wake:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
		exited:   make(chan struct{}),
	}
	go c.run()
	return c
}

// submit queues apply and waits until its batch is durable. It does not
// watch a context: once queued, the write completes within one fsync and the
// caller must learn its outcome.
func (c *committer) submit(apply func(*bolt.Tx, *batchAccounts) error) error {
	job := &commitJob{apply: apply, done: make(chan struct{})}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("%w: ledger is closed", ErrUnavailable)
	}
	c.queue = append(c.queue, job)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
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
		for batch := c.take(); len(batch) > 0; batch = c.take() {
			c.write(batch)
		}
		select {
		case <-c.stop:
			return // closed was set before stop, so the queue stays empty
		default:
		}
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

func (c *committer) write(batch []*commitJob) {
	err := c.db.Update(func(tx *bolt.Tx) error {
		accounts := batchAccounts{records: make(map[string]*accountRecord)}
		for _, job := range batch {
			job.err = job.apply(tx, &accounts)
		}
		return accounts.flush(tx)
	})
	for _, job := range batch {
		if err != nil {
			job.err = fmt.Errorf("%w: writing a batch of %d charges: %v", ErrUnavailable, len(batch), err)
		}
		close(job.done)
	}
}

// close writes what is queued, refuses new jobs and stops the goroutine.
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

// batchAccounts caches the account records one batch reads and changes.
type batchAccounts struct {
	records map[string]*accountRecord
}

// get returns the batch's copy of an account record, reading it once.
func (b *batchAccounts) get(tx *bolt.Tx, accountID string) (*accountRecord, error) {
	if rec, ok := b.records[accountID]; ok {
		return rec, nil
	}
	rec, err := loadAccount(tx, accountID)
	if err != nil {
		return nil, err
	}
	b.records[accountID] = &rec
	return &rec, nil
}

// flush writes every cached record back (unchanged ones included; they
// are few and rewriting them is harmless).
func (b *batchAccounts) flush(tx *bolt.Tx) error {
	for id, rec := range b.records {
		if err := storeAccount(tx, id, *rec); err != nil {
			return fmt.Errorf("writing account %s: %w", id, err)
		}
	}
	return nil
}
