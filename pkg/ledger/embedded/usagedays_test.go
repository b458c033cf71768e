package embedded

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// TestBoltMigratesUsageDays: a version-1 file (no usagedays bucket) opened
// by this binary gets the bucket built from its usage records, so reports
// of charges made before the upgrade are right.
func TestBoltMigratesUsageDays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	acct, key := ledgertest.NewAccount(t, s, 100, nil)
	ledgertest.Charge(t, s, key, "directions", 3, "old-1")
	ledgertest.Charge(t, s, key, "directions", 2, "old-2")
	ledgertest.Charge(t, s, key, "matrix", 10, "old-3")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rewriteFile(t, path, func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bucketUsageDays)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(metaSchemaVersion), []byte("1"))
	})
	s = openStore(t, path, ledger.Options{})
	u, err := s.LookupUsage(bg, "old-1")
	if err != nil {
		t.Fatal(err)
	}
	today := u.At // not time.Now(): the test may run across midnight
	r, err := s.UsageReport(bg, acct.AccountID, today, today)
	if err != nil {
		t.Fatal(err)
	}
	want := []ledger.DayUsage{{Date: today.UTC().Format(time.DateOnly), Operation: "directions", Requests: 2, Credits: 5},
		{Date: today.UTC().Format(time.DateOnly), Operation: "matrix", Requests: 1, Credits: 10}}
	if len(r.Days) != 2 || r.Days[0] != want[0] || r.Days[1] != want[1] || r.Balance.Closing != 85 {
		t.Errorf("after the migration: %+v, want days %+v and closing balance 85", r, want)
	}
	ledgertest.MustVerify(t, s)
}

// TestBoltVerifyChecksUsageDays: Verify reports usage days that disagree
// with the usage records.
func TestBoltVerifyChecksUsageDays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	acct, key := ledgertest.NewAccount(t, s, 100, nil)
	ledgertest.Charge(t, s, key, "directions", 3, "r-1")
	u, err := s.LookupUsage(bg, "r-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rewriteFile(t, path, func(tx *bolt.Tx) error {
		k := usageDayKey(acct.AccountID, shared.DayOf(u.At), "directions")
		return tx.Bucket([]byte(bucketUsageDays)).Put(k, []byte(`{"credits":4,"requests":1}`))
	})
	s = openStore(t, path, ledger.Options{})
	report, err := s.Verify(bg)
	if err != nil {
		t.Fatal(err)
	}
	if report.OK() || !strings.Contains(report.Mismatches[0].Reason, "usage days sum to 4") {
		t.Errorf("Verify = %+v, want the usage days' mismatch", report)
	}
}

// rewriteFile changes a closed ledger file with bbolt directly.
func rewriteFile(t *testing.T, path string, fn func(*bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
