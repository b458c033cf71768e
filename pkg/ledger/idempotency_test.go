package ledger

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// idemFixture is a store, its idempotency side, a funded account and a
// clock the test moves.
type idemFixture struct {
	store Store
	idem  Idempotency
	key   KeyInfo
	clock *fakeClock
	seq   atomic.Int64
}

func newIdemFixture(t *testing.T, open opener) *idemFixture {
	clock := newFakeClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	f := &idemFixture{clock: clock}
	f.store = open(t, Options{Now: clock.Now})
	var err error
	if f.idem, err = OpenIdempotency(bg, f.store, IdempotencyOptions{Now: clock.Now}); err != nil {
		t.Fatal(err)
	}
	_, f.key = newAccount(t, f.store, 1000, &Caps{})
	return f
}

func (f *idemFixture) claim(key, body string) Claim {
	return Claim{AccountID: f.key.AccountID, Key: key, Fingerprint: sha256.Sum256([]byte(body)),
		RequestID: fmt.Sprintf("req_idem_%d", f.seq.Add(1))}
}

// serve runs c's request the way pkg/api does once Begin claimed the key:
// reserve, complete, commit, finish.
func (f *idemFixture) serve(t *testing.T, c Claim, answer string) {
	t.Helper()
	r, err := f.store.Reserve(bg, f.key, "directions", 2, c.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.idem.Complete(bg, c, []byte(answer)); err != nil {
		t.Fatal(err)
	}
	cerr := f.store.Commit(bg, r)
	if err := f.idem.Finish(bg, c, cerr); err != nil || cerr != nil {
		t.Fatalf("commit %v, finish %v", cerr, err)
	}
}

func (f *idemFixture) begin(t *testing.T, c Claim) (*Replay, error) {
	t.Helper()
	r, err := f.idem.Begin(bg, c)
	if err != nil && !errors.Is(err, ErrIdempotencyKeyReused) && !errors.Is(err, ErrIdempotencyInProgress) {
		t.Fatalf("Begin: %v", err)
	}
	return r, err
}

func runIdempotencyContract(t *testing.T, open opener) {
	t.Run("ReplayChargedOnce", func(t *testing.T) {
		f := newIdemFixture(t, open)
		first := f.claim("k1", "body")
		if r, err := f.begin(t, first); r != nil || err != nil {
			t.Fatalf("first Begin: %v %v", r, err)
		}
		f.serve(t, first, `{"request_id":"`+first.RequestID+`"}`)
		retry := f.claim("k1", "body")
		r, err := f.begin(t, retry)
		if err != nil || r == nil || r.RequestID != first.RequestID || string(r.Answer) != `{"request_id":"`+first.RequestID+`"}` {
			t.Fatalf("retry: %+v %v", r, err)
		}
		if got := balanceOf(t, f.store, f.key.AccountID); got != 998 {
			t.Errorf("balance %d after a charge and its replay, want 998", got)
		}
		if _, err := f.begin(t, f.claim("k1", "another body")); !errors.Is(err, ErrIdempotencyKeyReused) {
			t.Errorf("another body: %v, want ErrIdempotencyKeyReused", err)
		}
		// Keys are per account.
		_, other := newAccount(t, f.store, 10, &Caps{})
		c := f.claim("k1", "another body")
		c.AccountID = other.AccountID
		if r, err := f.begin(t, c); r != nil || err != nil {
			t.Errorf("the same key on another account: %v %v", r, err)
		}
	})
	t.Run("InProgressAndAbandon", func(t *testing.T) {
		f := newIdemFixture(t, open)
		first := f.claim("k", "body")
		f.begin(t, first)
		if _, err := f.begin(t, f.claim("k", "body")); !errors.Is(err, ErrIdempotencyInProgress) {
			t.Fatalf("while running: %v, want ErrIdempotencyInProgress", err)
		}
		if _, err := f.begin(t, f.claim("k", "other")); !errors.Is(err, ErrIdempotencyKeyReused) {
			t.Fatalf("another body while running: %v, want ErrIdempotencyKeyReused", err)
		}
		if err := f.idem.Abandon(bg, first); err != nil {
			t.Fatal(err)
		}
		second := f.claim("k", "body")
		if r, err := f.begin(t, second); r != nil || err != nil {
			t.Fatalf("after Abandon: %v %v", r, err)
		}
		if err := f.idem.Complete(bg, first, []byte("late")); !errors.Is(err, ErrIdempotencyInProgress) {
			t.Errorf("Complete of the abandoned claim: %v, want ErrIdempotencyInProgress", err)
		}
	})
	t.Run("NothingChargedDropsTheClaim", func(t *testing.T) {
		f := newIdemFixture(t, open)
		c := f.claim("k", "body")
		f.begin(t, c)
		if err := f.idem.Complete(bg, c, []byte("answer")); err != nil {
			t.Fatal(err)
		}
		if err := f.idem.Finish(bg, c, ErrUnknownReservation); err != nil {
			t.Fatal(err)
		}
		if r, err := f.begin(t, f.claim("k", "body")); r != nil || err != nil {
			t.Fatalf("after a commit that charged nothing: %v %v", r, err)
		}
	})
	t.Run("ExpiresAfterTTL", func(t *testing.T) {
		f := newIdemFixture(t, open)
		c := f.claim("k", "body")
		f.begin(t, c)
		f.serve(t, c, "answer")
		f.clock.Set(f.clock.Now().Add(IdempotencyTTL + time.Minute))
		if r, err := f.begin(t, f.claim("k", "other body")); r != nil || err != nil {
			t.Fatalf("a day later: %v %v", r, err)
		}
		c2 := f.claim("k2", "body")
		f.begin(t, c2)
		f.serve(t, c2, "answer")
		f.clock.Set(f.clock.Now().Add(IdempotencyTTL + time.Minute))
		if n, err := f.idem.Prune(bg); err != nil || n < 1 {
			t.Fatalf("Prune: %d %v", n, err)
		}
	})
	t.Run("ConcurrentRetriesOneClaim", func(t *testing.T) {
		f := newIdemFixture(t, open)
		var claimed, inProgress atomic.Int64
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				r, err := f.idem.Begin(bg, f.claim("k", "body"))
				switch {
				case r == nil && err == nil:
					claimed.Add(1)
				case errors.Is(err, ErrIdempotencyInProgress):
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

func TestBoltIdempotency(t *testing.T) { runIdempotencyContract(t, boltOpener(SyncBackground)) }

func TestPostgresIdempotency(t *testing.T) { runIdempotencyContract(t, openPostgresTest) }

// TestBoltIdempotencyAcrossRestart: a stored answer whose charge never
// happened (the process died between Complete and Commit) is computed
// afresh after a restart; one whose charge happened is replayed.
func TestBoltIdempotencyAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := OpenWith(bg, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	idem, _ := OpenIdempotency(bg, s, IdempotencyOptions{})
	_, key := newAccount(t, s, 100, &Caps{})
	mk := func(k, id string) Claim {
		return Claim{AccountID: key.AccountID, Key: k, Fingerprint: sha256.Sum256([]byte("b")), RequestID: id}
	}
	charged, lost := mk("charged", "req_1"), mk("lost", "req_2")
	for _, c := range []Claim{charged, lost} {
		if r, err := idem.Begin(bg, c); r != nil || err != nil {
			t.Fatal(r, err)
		}
		if err := idem.Complete(bg, c, []byte("answer of "+c.RequestID)); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := s.Reserve(bg, key, "directions", 1, charged.RequestID)
	if err := s.Commit(bg, r); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = OpenWith(bg, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	idem, _ = OpenIdempotency(bg, s, IdempotencyOptions{})
	if r, err := idem.Begin(bg, mk("charged", "req_3")); err != nil || r == nil || r.RequestID != "req_1" || string(r.Answer) != "answer of req_1" {
		t.Errorf("the charged key after a restart: %+v %v", r, err)
	}
	if r, err := idem.Begin(bg, mk("lost", "req_4")); r != nil || err != nil {
		t.Errorf("the key whose charge never happened: %+v %v, want a new claim", r, err)
	}
}

// TestBoltIdempotencyInDoubt: a commit that failed in a way that may have
// charged keeps the key in progress.
func TestBoltIdempotencyInDoubt(t *testing.T) {
	f := newIdemFixture(t, boltOpener(SyncBackground))
	c := f.claim("k", "body")
	f.begin(t, c)
	f.idem.Complete(bg, c, []byte("answer"))
	f.idem.Finish(bg, c, fmt.Errorf("%w: disk full", ErrUnavailable))
	if _, err := f.begin(t, f.claim("k", "body")); !errors.Is(err, ErrIdempotencyInProgress) {
		t.Fatalf("after a commit in doubt: %v, want ErrIdempotencyInProgress", err)
	}
}

// TestPostgresIdempotencyTakeover: a claim whose request holds no credits
// is taken over after the lease; one whose request holds credits is not,
// and the first request's Complete then fails, so it cannot be charged.
func TestPostgresIdempotencyTakeover(t *testing.T) {
	f := newIdemFixture(t, openPostgresTest)
	stalled := f.claim("k", "body")
	f.begin(t, stalled)
	f.clock.Set(f.clock.Now().Add(2 * time.Minute))
	second := f.claim("k", "body")
	if r, err := f.begin(t, second); r != nil || err != nil {
		t.Fatalf("after the lease: %v %v, want a takeover", r, err)
	}
	if err := f.idem.Complete(bg, stalled, []byte("late")); !errors.Is(err, ErrIdempotencyInProgress) {
		t.Fatalf("the stalled request's Complete: %v, want ErrIdempotencyInProgress", err)
	}
	if _, err := f.store.Reserve(bg, f.key, "directions", 1, second.RequestID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.begin(t, f.claim("k", "body")); !errors.Is(err, ErrIdempotencyInProgress) {
		t.Fatalf("while its request holds credits, within the lease: %v, want ErrIdempotencyInProgress", err)
	}
	// Past the lease the request is dead (its mapd was killed): the key is
	// taken over and the hold voided, so the dead request cannot commit.
	before, _ := f.store.GetAccount(bg, f.key.AccountID)
	f.clock.Set(f.clock.Now().Add(2 * time.Minute))
	third := f.claim("k", "body")
	if r, err := f.begin(t, third); r != nil || err != nil {
		t.Fatalf("while a dead request holds credits, past the lease: %v %v, want a takeover", r, err)
	}
	after, _ := f.store.GetAccount(bg, f.key.AccountID)
	if after.Held != before.Held-1 {
		t.Errorf("the dead request's hold: held %d -> %d; want it given back", before.Held, after.Held)
	}
	f.serve(t, third, "answer")
	if a, _ := f.store.GetAccount(bg, f.key.AccountID); a.Usage.Requests != 1 {
		t.Errorf("%d requests charged, want the takeover's only", a.Usage.Requests)
	}
}

// TestBoltKeyedChargeVoidedAfterCrash (issue 34 item 1): a process killed
// while keyed requests computed leaves their charges in the journal. The
// charge of a request whose answer was stored stands (its retry gets the
// answer); the one whose answer was never stored is voided (its retry is
// the one charged); a charge without a key stays, as before. The journal
// the test writes is what Reserve writes: the key travels with the charge.
func TestBoltKeyedChargeVoidedAfterCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, Options{})
	idem, err := OpenIdempotency(bg, s, IdempotencyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, key := newAccount(t, s, 100, &Caps{})
	mk := func(k, id string) Claim {
		return Claim{AccountID: key.AccountID, Key: k, Fingerprint: sha256.Sum256([]byte("b")), RequestID: id}
	}
	answeredClaim := mk("answered", "req_a")
	if _, err := idem.Begin(bg, answeredClaim); err != nil {
		t.Fatal(err)
	}
	if err := idem.Complete(bg, answeredClaim, []byte("answer of req_a")); err != nil {
		t.Fatal(err)
	}
	// Reserve journals the key of a claimed request.
	running := mk("running", "req_live")
	if _, err := idem.Begin(bg, running); err != nil {
		t.Fatal(err)
	}
	r, err := s.Reserve(bg, key, "directions", 1, running.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := s.(*boltStore).live.peek(key.AccountID); h.holds[r.ID].charge.rec.Key != "running" {
		t.Errorf("the journaled charge of a keyed request carries key %q, want %q", h.holds[r.ID].charge.rec.Key, "running")
	}
	s.Release(bg, r)
	s.Close()

	epoch := leaveOpen(t, path)
	now := time.Now().UTC()
	keyed := func(id, k string, credits int64) journalRecord {
		rec := charged(key, id, "directions", credits, now)
		rec.Key = k
		return rec
	}
	buf := writeJournal(t, path, epoch, keyed("req_a", "answered", 5), keyed("req_b", "unanswered", 5),
		keyed("req_c", "", 2), keyed("req_d", "answered", 5)) // req_d: the key's answer is req_a's
	if err := writeRecords(path+journalSuffix, buf); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second open changes nothing
		s = openStore(t, path, Options{})
		a, err := s.GetAccount(bg, key.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if a.Balance != 100-5-2 || a.Usage.Requests != 2 {
			t.Errorf("after replay: balance %d, %d requests; want 93 and 2 (req_a and req_c)", a.Balance, a.Usage.Requests)
		}
		for id, want := range map[string]bool{"req_a": true, "req_b": false, "req_c": true, "req_d": false} {
			if _, err := s.LookupUsage(bg, id); (err == nil) != want {
				t.Errorf("usage of %s: %v, want charged %v", id, err, want)
			}
		}
		mustVerify(t, s)
		idem, _ = OpenIdempotency(bg, s, IdempotencyOptions{})
		if rp, err := idem.Begin(bg, mk("answered", "req_e")); err != nil || rp == nil || rp.RequestID != "req_a" {
			t.Errorf("the answered key's retry: %+v %v, want req_a's answer", rp, err)
		}
		if rp, err := idem.Begin(bg, mk("unanswered", "req_f")); rp != nil || err != nil {
			t.Errorf("the unanswered key's retry: %+v %v, want a new claim", rp, err)
		}
		s.Close()
	}
}
