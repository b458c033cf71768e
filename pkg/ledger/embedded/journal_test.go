package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// leaveOpen rewrites a closed ledger's journal meta as a crashed process
// leaves it (marked open), and returns the epoch a replay will read.
func leaveOpen(t *testing.T, path string) uint64 {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var epoch uint64
	err = db.Update(func(tx *bolt.Tx) error {
		m, err := readJournalMeta(tx)
		if err != nil {
			return err
		}
		epoch = m.epoch
		return writeJournalMeta(tx, epoch, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	return epoch
}

// crashedAfterOneCharge makes a ledger with one account of 100 credits
// charged 1 for request "applied" (in bbolt), left as a crashed process
// leaves it; it returns the path, the key and the epoch a replay reads.
func crashedAfterOneCharge(t *testing.T) (string, ledger.KeyInfo, uint64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	_, key := ledgertest.NewAccount(t, s, 100, &ledger.Caps{})
	ledgertest.Charge(t, s, key, "directions", 1, "applied")
	s.Close()
	return path, key, leaveOpen(t, path)
}

// charged is the journal record of a charge to key's account at now.
func charged(key ledger.KeyInfo, id, op string, credits int64, now time.Time) journalRecord {
	return journalRecord{Usage: ledger.Usage{RequestID: id, AccountID: key.AccountID, KeyID: key.KeyID,
		Operation: op, Credits: credits, At: now}, Day: shared.DayOf(now), Month: shared.MonthOf(now)}
}

func writeJournal(t *testing.T, path string, epoch uint64, recs ...journalRecord) []byte {
	t.Helper()
	var buf []byte
	for _, r := range recs {
		var err error
		if buf, err = appendRecord(buf, epoch, r); err != nil {
			t.Fatal(err)
		}
	}
	return buf
}

// TestBoltJournalReplay: Open applies the records a crashed process left in
// the journal, skips those already applied, stops at a torn last record
// (never acknowledged), and does not apply anything twice on the next Open.
func TestBoltJournalReplay(t *testing.T) {
	path, key, epoch := crashedAfterOneCharge(t)
	now := time.Now().UTC()
	rec := func(id string, credits int64) journalRecord { return charged(key, id, "matrix", credits, now) }
	buf := writeJournal(t, path, epoch, rec("applied", 1), rec("lost-1", 2), rec("lost-2", 3))
	torn := writeJournal(t, path, epoch, rec("torn", 4))
	torn = torn[:len(torn)-7] // the crash cut its write short
	if err := writeRecords(path+journalSuffix, append(buf, torn...)); err != nil {
		t.Fatal(err)
	}

	for range 2 { // the second Open must find nothing new to apply
		s := openStore(t, path, ledger.Options{})
		a, err := s.GetAccount(bg, key.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if a.Balance != 94 || a.Usage.Requests != 3 || a.Usage.ByOperation["matrix"] != (ledger.OperationTotals{Credits: 5, Requests: 2}) {
			t.Errorf("after replay: %+v, want balance 94 and the two lost matrix charges back", a)
		}
		if _, err := s.LookupUsage(bg, "torn"); !errors.Is(err, ledger.ErrUnknownRequest) {
			t.Errorf("LookupUsage(torn) = %v, want ErrUnknownRequest", err)
		}
		ledgertest.MustVerify(t, s)
		s.Close()
	}
}

// writeRecords writes encoded records where a journal's records start.
func writeRecords(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(b, journalStart); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// TestBoltJournalMissing: a journal deleted after a clean Close is simply
// made again; deleted after a crash, Open refuses the ledger.
func TestBoltJournalMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	_, key := ledgertest.NewAccount(t, s, 10, nil)
	ledgertest.Charge(t, s, key, "directions", 1, "r1")
	s.Close()
	if err := os.Remove(path + journalSuffix); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path, ledger.Options{})
	if b := ledgertest.BalanceOf(t, s, key.AccountID); b != 9 {
		t.Errorf("balance %d after a clean close, want 9", b)
	}
	s.Close()

	leaveOpen(t, path)
	if err := os.Remove(path + journalSuffix); err != nil {
		t.Fatal(err)
	}
	_, err := Open(bg, path, ledger.Options{})
	if !errors.Is(err, ledger.ErrUnavailable) || !strings.Contains(err.Error(), "journal") {
		t.Errorf("Open without the journal of a crashed ledger = %v, want an ErrUnavailable naming the journal", err)
	}
}

// TestBoltJournalWraps charges many times the journal's capacity from
// several goroutines: every charge is kept, before and after reopening.
func TestBoltJournalWraps(t *testing.T) {
	for _, mode := range syncModes {
		t.Run(mode.String(), func(t *testing.T) { journalWraps(t, mode) })
	}
}

func journalWraps(t *testing.T, mode ledger.Sync) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{JournalSize: minJournalSize, Sync: mode})
	_, key := ledgertest.NewAccount(t, s, 1_000_000, &ledger.Caps{})
	const workers, each = 16, 200 // about 10 times the journal
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprintf("wrap-%d-%d", w, i)
				r, err := s.Reserve(bg, key, "directions", 1, id)
				if err == nil {
					err = s.Commit(bg, r)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if epoch := s.(*boltStore).journal.epoch; epoch < 5 {
		t.Errorf("journal epoch %d: the journal did not start over as often as expected", epoch)
	}
	for range 2 {
		a, err := s.GetAccount(bg, key.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if a.Balance != 1_000_000-workers*each || a.Usage.Requests != workers*each {
			t.Errorf("account %+v, want %d charges", a, workers*each)
		}
		ledgertest.MustVerify(t, s)
		s.Close()
		s = openStore(t, path, ledger.Options{})
	}
}

// TestBoltDuplicateRequestIDs: a request id is charged once, whether its
// first charge is still in the journal, already in bbolt, or racing in the
// same group.
func TestBoltDuplicateRequestIDs(t *testing.T) {
	s := openBoltTest(t, ledger.Options{})
	_, key := ledgertest.NewAccount(t, s, 1000, &ledger.Caps{})
	ledgertest.Charge(t, s, key, "directions", 1, "in-bbolt")
	if _, err := s.LookupUsage(bg, "in-bbolt"); err != nil { // waits until it is in bbolt
		t.Fatal(err)
	}
	r, err := s.Reserve(bg, key, "directions", 1, "in-bbolt")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(bg, r); !errors.Is(err, ledger.ErrDuplicateRequest) {
		t.Errorf("Commit of an id already in bbolt = %v, want ErrDuplicateRequest", err)
	}
	var ok, dup atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			r, err := s.Reserve(bg, key, "directions", 1, "raced")
			if err == nil {
				err = s.Commit(bg, r)
			}
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ledger.ErrDuplicateRequest):
				dup.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || dup.Load() != 31 {
		t.Errorf("32 commits of one id: %d charged, %d refused as duplicates; want 1 and 31", ok.Load(), dup.Load())
	}
	if a, _ := s.GetAccount(bg, key.AccountID); a.Balance != 998 || a.Held != 0 {
		t.Errorf("balance %d held %d, want 998 and 0", a.Balance, a.Held)
	}
	ledgertest.MustVerify(t, s)
}

// TestBoltDuplicateOlderRequestIDs: the duplicate check skips bbolt only
// for ids newer than every id bbolt holds; older ones, in bbolt or not,
// are still looked up, and so are ids charged before the ledger was
// reopened.
func TestBoltDuplicateOlderRequestIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	_, key := ledgertest.NewAccount(t, s, 1000, &ledger.Caps{})
	for _, id := range []string{"req-b", "req-d"} {
		ledgertest.Charge(t, s, key, "directions", 1, id)
	}
	if _, err := s.LookupUsage(bg, "req-d"); err != nil { // waits until both are in bbolt
		t.Fatal(err)
	}
	check := func(s ledger.Store, id string, wantDup bool) {
		t.Helper()
		r, err := s.Reserve(bg, key, "directions", 1, id)
		if err == nil {
			err = s.Commit(bg, r)
		}
		if dup := errors.Is(err, ledger.ErrDuplicateRequest); dup != wantDup || (err != nil && !dup) {
			t.Errorf("charging %s: %v; want a duplicate: %v", id, err, wantDup)
		}
	}
	for _, c := range []struct {
		id  string
		dup bool
	}{
		{"req-a", false}, // older than the newest, not charged
		{"req-b", true},  // older than the newest, charged
		{"req-c", false},
		{"req-d", true}, // the newest
		{"req-e", false},
	} {
		check(s, c.id, c.dup)
	}
	s.Close()
	s = openStore(t, path, ledger.Options{})
	for _, id := range []string{"req-a", "req-b", "req-c", "req-d", "req-e"} {
		check(s, id, true)
	}
	check(s, "req-f", false)
	if a, _ := s.GetAccount(bg, key.AccountID); a.Balance != 1000-6 {
		t.Errorf("balance %d, want %d: six distinct ids charged", a.Balance, 1000-6)
	}
	ledgertest.MustVerify(t, s)
}

// TestNextWindow: read-ahead asks for the window after the writer's, and
// for the journal's start once the writer is in the last window, partial
// or whole.
func TestNextWindow(t *testing.T) {
	const w = readAheadWindow
	for _, c := range []struct {
		window, size, want int64
	}{
		{0, 8 << 20, w},
		{1, 8 << 20, 2 * w},
		{(8<<20)/w - 2, 8 << 20, 8<<20 - w},
		{(8<<20)/w - 1, 8 << 20, 0}, // the last window: the start is next
		{0, w, 0},                   // a journal of one window
		{1, 2*w + 100, 2 * w},       // the partial last window is read ahead
		{2, 2*w + 100, 0},
	} {
		if got := nextWindow(c.window, c.size); got != c.want {
			t.Errorf("nextWindow(%d, %d) = %d, want %d", c.window, c.size, got, c.want)
		}
	}
}

// TestBoltUsagePagesPacked: usage records arrive in request-id order, so
// the usage bucket's leaves must be packed full, not left half empty by
// bbolt's default split (which doubled the file's growth a charge).
func TestBoltUsagePagesPacked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	_, key := ledgertest.NewAccount(t, s, 1<<30, &ledger.Caps{})
	for i := range 5000 {
		ledgertest.Charge(t, s, key, "directions", 1, fmt.Sprintf("req_%08d", i))
		if i%1000 == 999 {
			if _, err := s.LookupUsage(bg, fmt.Sprintf("req_%08d", i)); err != nil { // one bbolt batch each
				t.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		st := tx.Bucket([]byte(bucketUsage)).Stats()
		if st.KeyN != 5000 {
			t.Errorf("%d usage records, want 5000", st.KeyN)
		}
		if fill := float64(st.LeafInuse) / float64(st.LeafAlloc); fill < 0.85 {
			t.Errorf("usage leaves %.0f %% full (%d of %d bytes), want at least 85 %%", 100*fill, st.LeafInuse, st.LeafAlloc)
		}
		return nil
	})
}
