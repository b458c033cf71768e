package embedded

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// TestBoltRetentionAndCompaction (issue 34 item 5): usage records past the
// retention are pruned (the books, the account's totals and the per-day
// sums of `usage export` stay whole; `usage show` of a pruned request finds
// nothing), expired Idempotency-Key answers are pruned, and Compact then
// gives the freed pages back to the file system, refusing a served ledger.
func TestBoltRetentionAndCompaction(t *testing.T) {
	clock := ledgertest.NewFakeClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{Now: clock.Now})
	idem, err := ledger.OpenIdempotency(bg, s, ledger.IdempotencyOptions{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	acct, key := ledgertest.NewAccount(t, s, 1_000_000, &ledger.Caps{})
	const n = 3000
	answer := bytes.Repeat([]byte("x"), ledger.MaxStoredAnswer) // the largest stored whole
	for i := range n {
		c := ledger.Claim{AccountID: key.AccountID, Key: fmt.Sprintf("k%d", i), Fingerprint: sha256.Sum256([]byte("b")), RequestID: fmt.Sprintf("req_r%05d", i)}
		if _, err := idem.Begin(bg, c); err != nil {
			t.Fatal(err)
		}
		r, err := s.Reserve(bg, key, "directions", 2, c.RequestID)
		if err != nil {
			t.Fatal(err)
		}
		if err := idem.Complete(bg, c, answer); err != nil {
			t.Fatal(err)
		}
		if err := idem.Finish(bg, c, s.Commit(bg, r)); err != nil {
			t.Fatal(err)
		}
	}
	day := clock.Now()
	clock.Set(day.Add(48 * time.Hour))
	ledgertest.Charge(t, s, key, "matrix", 1, "req_recent") // inside the retention: kept

	if pruned, err := idem.Prune(bg); err != nil || pruned != n {
		t.Fatalf("idempotency Prune: %d, %v; want %d", pruned, err, n)
	}
	pruned, err := s.(ledger.UsagePruner).PruneUsage(bg, clock.Now().Add(-24*time.Hour))
	if err != nil || pruned != n {
		t.Fatalf("PruneUsage: %d, %v; want %d", pruned, err, n)
	}
	ledgertest.MustVerify(t, s)
	a, _ := s.GetAccount(bg, acct.AccountID)
	if a.Balance != 1_000_000-2*n-1 || a.Usage.Requests != n+1 || a.Usage.AllTime != 2*n+1 {
		t.Errorf("after pruning: balance %d, %d requests, %d credits; want the totals unchanged", a.Balance, a.Usage.Requests, a.Usage.AllTime)
	}
	if _, err := s.LookupUsage(bg, "req_r00000"); !errors.Is(err, ledger.ErrUnknownRequest) {
		t.Errorf("a pruned request's usage: %v, want ErrUnknownRequest", err)
	}
	if _, err := s.LookupUsage(bg, "req_recent"); err != nil {
		t.Errorf("a recent request's usage: %v", err)
	}
	rep, err := s.UsageReport(bg, acct.AccountID, day, day)
	if err != nil || rep.Totals.Requests != n || rep.Totals.Credits != 2*n {
		t.Errorf("the export of the pruned day: %+v, %v; want %d requests, %d credits", rep.Totals, err, n, 2*n)
	}
	if _, err := Compact(bg, path, ledger.Options{LockTimeout: 100 * time.Millisecond}); !errors.Is(err, ledger.ErrLocked) {
		t.Errorf("Compact of a served ledger: %v, want ErrLocked", err)
	}
	s.Close()

	crep, err := Compact(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d keyed answers of %d bytes and their usage records pruned: compacted from %d to %d bytes", n, ledger.MaxStoredAnswer, crep.BytesBefore, crep.BytesAfter)
	if crep.BytesAfter >= crep.BytesBefore/2 {
		t.Errorf("compaction: %d -> %d bytes, want less than half", crep.BytesBefore, crep.BytesAfter)
	}
	s = openStore(t, path, ledger.Options{})
	defer s.Close()
	ledgertest.MustVerify(t, s)
	if b, _ := s.GetAccount(bg, acct.AccountID); b.Balance != a.Balance || b.Usage.AllTime != a.Usage.AllTime || b.Usage.Requests != a.Usage.Requests {
		t.Errorf("after compaction: %+v, want %+v", b, a)
	}
	ledgertest.Charge(t, s, key, "directions", 1, "req_after")
	ledgertest.MustVerify(t, s)
}
