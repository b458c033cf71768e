package ledgertest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// IdemFixture is a store, its idempotency side, a funded account and a
// clock the test moves.
type IdemFixture struct {
	Store ledger.Store
	Idem  ledger.Idempotency
	Key   ledger.KeyInfo
	Clock *FakeClock
	seq   atomic.Int64
}

// NewIdemFixture opens a store with open, its idempotency side and an
// account funded with 1000 credits, on a FakeClock.
func NewIdemFixture(t *testing.T, open Opener) *IdemFixture {
	clock := NewFakeClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	f := &IdemFixture{Clock: clock}
	f.Store = open(t, ledger.Options{Now: clock.Now})
	var err error
	if f.Idem, err = ledger.OpenIdempotency(bg, f.Store, ledger.IdempotencyOptions{Now: clock.Now}); err != nil {
		t.Fatal(err)
	}
	_, f.Key = NewAccount(t, f.Store, 1000, &ledger.Caps{})
	return f
}

// Claim makes a claim of the fixture's account on key, for a request with
// the given body and a fresh request id.
func (f *IdemFixture) Claim(key, body string) ledger.Claim {
	return ledger.Claim{AccountID: f.Key.AccountID, Key: key, Fingerprint: sha256.Sum256([]byte(body)),
		RequestID: fmt.Sprintf("req_idem_%d", f.seq.Add(1))}
}

// Serve runs c's request the way pkg/api does once Begin claimed the key:
// reserve, complete, commit, finish.
func (f *IdemFixture) Serve(t *testing.T, c ledger.Claim, answer string) {
	t.Helper()
	r, err := f.Store.Reserve(bg, f.Key, "directions", 2, c.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Idem.Complete(bg, c, []byte(answer)); err != nil {
		t.Fatal(err)
	}
	cerr := f.Store.Commit(bg, r)
	if err := f.Idem.Finish(bg, c, cerr); err != nil || cerr != nil {
		t.Fatalf("commit %v, finish %v", cerr, err)
	}
}

// Begin is Idempotency.Begin, failing the test on any error other than
// ErrIdempotencyKeyReused and ErrIdempotencyInProgress.
func (f *IdemFixture) Begin(t *testing.T, c ledger.Claim) (*ledger.Replay, error) {
	t.Helper()
	r, err := f.Idem.Begin(bg, c)
	if err != nil && !errors.Is(err, ledger.ErrIdempotencyKeyReused) && !errors.Is(err, ledger.ErrIdempotencyInProgress) {
		t.Fatalf("Begin: %v", err)
	}
	return r, err
}

// RunIdempotencyContract is the behaviour every store's Idempotency must
// show (TestBoltIdempotency, TestPostgresIdempotency).
func RunIdempotencyContract(t *testing.T, open Opener) {
	t.Run("ReplayChargedOnce", func(t *testing.T) {
		f := NewIdemFixture(t, open)
		first := f.Claim("k1", "body")
		if r, err := f.Begin(t, first); r != nil || err != nil {
			t.Fatalf("first Begin: %v %v", r, err)
		}
		f.Serve(t, first, `{"request_id":"`+first.RequestID+`"}`)
		retry := f.Claim("k1", "body")
		r, err := f.Begin(t, retry)
		if err != nil || r == nil || r.RequestID != first.RequestID || string(r.Answer) != `{"request_id":"`+first.RequestID+`"}` {
			t.Fatalf("retry: %+v %v", r, err)
		}
		if got := BalanceOf(t, f.Store, f.Key.AccountID); got != 998 {
			t.Errorf("balance %d after a charge and its replay, want 998", got)
		}
		if _, err := f.Begin(t, f.Claim("k1", "another body")); !errors.Is(err, ledger.ErrIdempotencyKeyReused) {
			t.Errorf("another body: %v, want ErrIdempotencyKeyReused", err)
		}
		// Keys are per account.
		_, other := NewAccount(t, f.Store, 10, &ledger.Caps{})
		c := f.Claim("k1", "another body")
		c.AccountID = other.AccountID
		if r, err := f.Begin(t, c); r != nil || err != nil {
			t.Errorf("the same key on another account: %v %v", r, err)
		}
	})
	t.Run("InProgressAndAbandon", func(t *testing.T) {
		f := NewIdemFixture(t, open)
		first := f.Claim("k", "body")
		f.Begin(t, first)
		if _, err := f.Begin(t, f.Claim("k", "body")); !errors.Is(err, ledger.ErrIdempotencyInProgress) {
			t.Fatalf("while running: %v, want ErrIdempotencyInProgress", err)
		}
		if _, err := f.Begin(t, f.Claim("k", "other")); !errors.Is(err, ledger.ErrIdempotencyKeyReused) {
			t.Fatalf("another body while running: %v, want ErrIdempotencyKeyReused", err)
		}
		if err := f.Idem.Abandon(bg, first); err != nil {
			t.Fatal(err)
		}
		second := f.Claim("k", "body")
		if r, err := f.Begin(t, second); r != nil || err != nil {
			t.Fatalf("after Abandon: %v %v", r, err)
		}
		if err := f.Idem.Complete(bg, first, []byte("late")); !errors.Is(err, ledger.ErrIdempotencyInProgress) {
			t.Errorf("Complete of the abandoned claim: %v, want ErrIdempotencyInProgress", err)
		}
	})
	t.Run("NothingChargedDropsTheClaim", func(t *testing.T) {
		f := NewIdemFixture(t, open)
		c := f.Claim("k", "body")
		f.Begin(t, c)
		if err := f.Idem.Complete(bg, c, []byte("answer")); err != nil {
			t.Fatal(err)
		}
		if err := f.Idem.Finish(bg, c, ledger.ErrUnknownReservation); err != nil {
			t.Fatal(err)
		}
		if r, err := f.Begin(t, f.Claim("k", "body")); r != nil || err != nil {
			t.Fatalf("after a commit that charged nothing: %v %v", r, err)
		}
	})
	t.Run("ExpiresAfterTTL", func(t *testing.T) {
		f := NewIdemFixture(t, open)
		c := f.Claim("k", "body")
		f.Begin(t, c)
		f.Serve(t, c, "answer")
		f.Clock.Set(f.Clock.Now().Add(ledger.IdempotencyTTL + time.Minute))
		if r, err := f.Begin(t, f.Claim("k", "other body")); r != nil || err != nil {
			t.Fatalf("a day later: %v %v", r, err)
		}
		c2 := f.Claim("k2", "body")
		f.Begin(t, c2)
		f.Serve(t, c2, "answer")
		f.Clock.Set(f.Clock.Now().Add(ledger.IdempotencyTTL + time.Minute))
		if n, err := f.Idem.Prune(bg); err != nil || n < 1 {
			t.Fatalf("Prune: %d %v", n, err)
		}
	})
	t.Run("ConcurrentRetriesOneClaim", func(t *testing.T) {
		f := NewIdemFixture(t, open)
		var claimed, inProgress atomic.Int64
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				r, err := f.Idem.Begin(bg, f.Claim("k", "body"))
				switch {
				case r == nil && err == nil:
					claimed.Add(1)
				case errors.Is(err, ledger.ErrIdempotencyInProgress):
					inProgress.Add(1)
				default:
					t.Errorf("Begin: %v %v", r, err)
				}
			})
		}
		wg.Wait()
		if claimed.Load() != 1 || inProgress.Load() != 15 {
			t.Fatalf("16 concurrent Begins: %d claimed, %d in progress; want 1 and 15", claimed.Load(), inProgress.Load())
		}
	})
}
