package postgres

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// A request answered anything but 200 must cost nothing. With PostgreSQL
// that needs care when the server stalls (SIGSTOP, a hung disk) with a
// commit in its hands: mapd gives up after pgCallTimeout and answers 503,
// but the commit sits in the server's socket and runs when the server
// resumes. Two things stop it from charging:
//
//  1. The deadline. Commit runs ledger_commit (schema.go, version
//     2) with a deadline pgCommitBudget after it was sent, in the server's
//     own clock (serverNow). The server charges only if it runs the
//     commit by then; later, it gives the credits back itself and records
//     why in ledger_voids. That settles every commit the server starts
//     after mapd has given up, even if mapd dies meanwhile.
//  2. The void. A commit the server ran in time but whose answer did not
//     reach mapd before pgCallTimeout (the server stalled between the two,
//     or the connection broke) was charged and answered 503. So every
//     Commit (and Release) whose outcome mapd did not learn is queued here
//     and retried until the server answers: ledger_void releases the hold
//     if the commit has not run, or refunds the charge if it has (and
//     records either in ledger_voids). A commit that arrives after its
//     void finds no hold and charges nothing.
//
// What is not covered: a void still queued when mapd dies (it is logged,
// with its request id, if mapd closes the store first).

// pgCommitBudget is how long after Commit sends it the server may still
// run a commit: well inside pgCallTimeout, so that the server never
// charges a commit mapd has given up on and answered 503 unless it ran it
// in time and its answer was then lost (the void covers that).
const pgCommitBudget = pgCallTimeout - 500*time.Millisecond

// voidRetry bounds how often the voider retries while the server does not
// answer.
const voidRetry = 250 * time.Millisecond

// voidJob is a reservation whose Commit or Release got no answer.
type voidJob struct {
	r      ledger.Reservation
	reason string
	since  time.Time
}

// voider retries the voids of unanswered commits and releases until the
// server answers them, in a goroutine of its own.
type voider struct {
	s       *postgresStore
	mu      sync.Mutex
	pending []voidJob
	wake    chan struct{} // capacity 1
	stop    chan struct{}
	done    chan struct{}
}

func newVoider(s *postgresStore) *voider {
	v := &voider{s: s, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go v.run()
	return v
}

// add queues the void of r.
func (v *voider) add(r ledger.Reservation, reason string) {
	v.mu.Lock()
	v.pending = append(v.pending, voidJob{r: r, reason: reason, since: time.Now()})
	v.mu.Unlock()
	shared.Signal(v.wake)
}

// queued counts the voids not yet done.
func (v *voider) queued() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.pending)
}

func (v *voider) run() {
	defer close(v.done)
	retry := time.NewTimer(voidRetry)
	defer retry.Stop()
	for {
		select {
		case <-v.stop:
			return
		case <-v.wake:
		case <-retry.C:
		}
		v.attempt(context.Background())
		retry.Reset(voidRetry)
	}
}

// attempt tries every queued void once, in order, and stops at the first
// the server does not answer (the others would wait as long).
func (v *voider) attempt(ctx context.Context) {
	v.mu.Lock()
	jobs := v.pending
	v.mu.Unlock()
	done := 0
	for _, job := range jobs {
		if err := v.s.void(ctx, job); err != nil {
			break
		}
		done++
	}
	v.mu.Lock()
	v.pending = v.pending[done:]
	v.mu.Unlock()
}

// close stops retrying, makes a last attempt bounded by d, and logs every
// void left: their requests may be charged although answered 503.
func (v *voider) close(d time.Duration) {
	close(v.stop)
	<-v.done
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	v.attempt(ctx)
	for _, job := range v.pending {
		v.s.opts.Logger.Error("ledger: a request answered 503 may stay charged: its commit got no answer and PostgreSQL did not answer its void before mapd stopped",
			"request_id", job.r.RequestID, "account_id", job.r.AccountID, "hold_id", job.r.ID, "reason", job.reason)
	}
}

// void runs ledger_void for one job.
func (s *postgresStore) void(ctx context.Context, job voidJob) error {
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	var outcome string
	var credits int64
	err := s.pool.QueryRow(ctx, `SELECT o_outcome, o_credits FROM ledger_void($1, $2, $3, $4)`,
		job.r.ID, job.r.AccountID, job.r.RequestID, job.reason).Scan(&outcome, &credits)
	if err != nil {
		return s.fail("voiding request "+job.r.RequestID, err)
	}
	if outcome == "refunded" {
		s.opts.Logger.Warn("ledger: refunded the charge of a request answered 503: PostgreSQL ran its commit in time but the answer was lost",
			"request_id", job.r.RequestID, "account_id", job.r.AccountID, "credits", credits, "after", time.Since(job.since).Round(time.Millisecond))
	}
	return nil
}

// serverNow is the server's clock, estimated from the local one and the
// offset measured at open and at every sweep.
func (s *postgresStore) serverNow() time.Time {
	return time.Now().Add(time.Duration(s.clockOffset.Load()))
}

// measureClock measures the server's clock against the local one, to
// within half a round trip.
func (s *postgresStore) measureClock(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pgCallTimeout)
	defer cancel()
	before := time.Now()
	var server time.Time
	if err := s.pool.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&server); err != nil {
		return s.fail("reading the server's clock", err)
	}
	after := time.Now()
	local := before.Add(after.Sub(before) / 2)
	s.clockOffset.Store(int64(server.Sub(local)))
	return nil
}

// errLate is why a Commit that ran after its deadline failed.
var errLate = errors.New("the ledger ran the commit after its deadline and gave the credits back")
