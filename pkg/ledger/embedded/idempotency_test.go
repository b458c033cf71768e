package embedded

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

func TestBoltIdempotency(t *testing.T) {
	ledgertest.RunIdempotencyContract(t, boltOpener(ledger.SyncBackground))
}

// TestBoltIdempotencyAcrossRestart: a stored answer whose charge never
// happened (the process died between Complete and Commit) is computed
// afresh after a restart; one whose charge happened is replayed.
func TestBoltIdempotencyAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := Open(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	idem, _ := ledger.OpenIdempotency(bg, s, ledger.IdempotencyOptions{})
	_, key := ledgertest.NewAccount(t, s, 100, &ledger.Caps{})
	mk := func(k, id string) ledger.Claim {
		return ledger.Claim{AccountID: key.AccountID, Key: k, Fingerprint: sha256.Sum256([]byte("b")), RequestID: id}
	}
	charged, lost := mk("charged", "req_1"), mk("lost", "req_2")
	for _, c := range []ledger.Claim{charged, lost} {
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

	s, err = Open(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	idem, _ = ledger.OpenIdempotency(bg, s, ledger.IdempotencyOptions{})
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
	f := ledgertest.NewIdemFixture(t, boltOpener(ledger.SyncBackground))
	c := f.Claim("k", "body")
	f.Begin(t, c)
	f.Idem.Complete(bg, c, []byte("answer"))
	f.Idem.Finish(bg, c, fmt.Errorf("%w: disk full", ledger.ErrUnavailable))
	if _, err := f.Begin(t, f.Claim("k", "body")); !errors.Is(err, ledger.ErrIdempotencyInProgress) {
		t.Fatalf("after a commit in doubt: %v, want ErrIdempotencyInProgress", err)
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
	s := openStore(t, path, ledger.Options{})
	idem, err := ledger.OpenIdempotency(bg, s, ledger.IdempotencyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, key := ledgertest.NewAccount(t, s, 100, &ledger.Caps{})
	mk := func(k, id string) ledger.Claim {
		return ledger.Claim{AccountID: key.AccountID, Key: k, Fingerprint: sha256.Sum256([]byte("b")), RequestID: id}
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
		s = openStore(t, path, ledger.Options{})
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
		ledgertest.MustVerify(t, s)
		idem, _ = ledger.OpenIdempotency(bg, s, ledger.IdempotencyOptions{})
		if rp, err := idem.Begin(bg, mk("answered", "req_e")); err != nil || rp == nil || rp.RequestID != "req_a" {
			t.Errorf("the answered key's retry: %+v %v, want req_a's answer", rp, err)
		}
		if rp, err := idem.Begin(bg, mk("unanswered", "req_f")); rp != nil || err != nil {
			t.Errorf("the unanswered key's retry: %+v %v, want a new claim", rp, err)
		}
		s.Close()
	}
}
