package embedded

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// The embedded store journals a charge when it is reserved, so that the
// sync overlaps the request's work, and cancels it when the request fails.
// These tests pin down what that means on disk.

// TestBoltReservedChargeIsJournaled: after Reserve, before Commit, the
// charge is already in the journal (what lets Commit wait for less).
func TestBoltReservedChargeIsJournaled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	_, key := ledgertest.NewAccount(t, s, 10, &ledger.Caps{})
	r, err := s.Reserve(bg, key, "isochrone", 5, "computing")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.(*boltStore).live.peek(key.AccountID)
	a.mu.Lock()
	job := a.holds[r.ID].charge
	a.mu.Unlock()
	if err := job.wait(); err != nil {
		t.Fatal(err)
	}
	recs := journalRecords(t, s.(*boltStore))
	if len(recs) != 1 || recs[0].RequestID != "computing" || recs[0].Credits != 5 || recs[0].Cancel {
		t.Fatalf("journal after Reserve: %+v, want the charge of request computing", recs)
	}
	if err := s.Commit(bg, r); err != nil {
		t.Fatal(err)
	}
	if recs := journalRecords(t, s.(*boltStore)); len(recs) != 1 {
		t.Errorf("Commit wrote again: %+v", recs)
	}
}

// TestBoltReleaseCancelsDurably: a released request leaves a charge and its
// cancellation in the journal, and no trace in the books, before and after
// a reopen.
func TestBoltReleaseCancelsDurably(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	acct, key := ledgertest.NewAccount(t, s, 10, &ledger.Caps{Daily: 8})
	ledgertest.Charge(t, s, key, "directions", 1, "ok")
	r, err := s.Reserve(bg, key, "isochrone", 5, "failed")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Release(bg, r); err != nil {
		t.Fatal(err)
	}
	recs := journalRecords(t, s.(*boltStore))
	if n := len(recs); n != 3 || !recs[2].Cancel || recs[2].RequestID != "failed" {
		t.Fatalf("journal: %+v, want ok's charge, failed's charge and its cancellation", recs)
	}
	for round := range 2 {
		if _, err := s.LookupUsage(bg, "failed"); !errors.Is(err, ledger.ErrUnknownRequest) {
			t.Errorf("round %d: LookupUsage(failed) = %v, want ErrUnknownRequest", round, err)
		}
		got, err := s.GetAccount(bg, acct.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Balance != 9 || got.Held != 0 || got.Usage.Requests != 1 || got.Usage.Today != 1 ||
			got.Usage.ByOperation["isochrone"] != (ledger.OperationTotals{}) {
			t.Errorf("round %d: %+v, want balance 9, one directions request today", round, got)
		}
		// The daily cap of 8 leaves 7 after ok's credit: the cancelled 5
		// must not count.
		if r, err := s.Reserve(bg, key, "matrix", 7, "fits-"+string(rune('a'+round))); err != nil {
			t.Errorf("round %d: a 7-credit reservation under the cap: %v", round, err)
		} else if err := s.Release(bg, r); err != nil {
			t.Fatal(err)
		}
		ledgertest.MustVerify(t, s)
		s.Close()
		s = openStore(t, path, ledger.Options{})
	}
}

// TestBoltJournalReplayCancels: replay applies cancellations in journal
// order, also to charges bbolt already had, and replaying a charge whose
// cancellation was applied before the crash ends with neither.
func TestBoltJournalReplayCancels(t *testing.T) {
	path, key, epoch := crashedAfterOneCharge(t)
	now := time.Now().UTC()
	// A cancellation is a copy of its charge's record (Release makes it so).
	rec := func(id, op string, credits int64, cancel bool) journalRecord {
		r := charged(key, id, op, credits, now)
		r.Cancel = cancel
		return r
	}
	buf := writeJournal(t, path, epoch,
		rec("applied", "directions", 1, true), // bbolt has it: cancelled
		rec("failed", "matrix", 2, false),     // charged and cancelled in the journal
		rec("failed", "matrix", 2, true),
		rec("crashed", "matrix", 3, false), // reserved, then the crash: charged
		rec("never", "matrix", 4, true))    // a cancellation of nothing: ignored
	if err := writeRecords(path+journalSuffix, buf); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, path, ledger.Options{})
	a, err := s.GetAccount(bg, key.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 97 || a.Usage.Requests != 1 || a.Usage.AllTime != 3 || len(a.Usage.ByOperation) != 1 ||
		a.Usage.ByOperation["matrix"] != (ledger.OperationTotals{Credits: 3, Requests: 1}) {
		t.Errorf("after replay: %+v, want balance 97 and only crashed's charge", a)
	}
	for _, id := range []string{"applied", "failed", "never"} {
		if _, err := s.LookupUsage(bg, id); !errors.Is(err, ledger.ErrUnknownRequest) {
			t.Errorf("LookupUsage(%s) = %v, want ErrUnknownRequest", id, err)
		}
	}
	ledgertest.MustVerify(t, s)
}

// journalRecords reads the current epoch's records of an open store's
// journal.
func journalRecords(t *testing.T, s *boltStore) []journalRecord {
	t.Helper()
	f, err := os.Open(s.path + journalSuffix)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc, err := (&journal{f: f, path: f.Name(), size: s.journal.size}).scanEpoch(journalStart, s.journal.epoch)
	if err != nil {
		t.Fatal(err)
	}
	return sc.records(false)
}
