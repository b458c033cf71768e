package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

func TestBoltContract(t *testing.T) {
	for _, mode := range syncModes {
		t.Run(mode.String(), func(t *testing.T) { ledgertest.RunContract(t, boltOpener(mode), addLegacyKey) })
	}
}

func TestBoltMixedOutcomes(t *testing.T) {
	for _, mode := range syncModes {
		t.Run(mode.String(), func(t *testing.T) { ledgertest.RunMixedOutcomes(t, boltOpener(mode)(t, ledger.Options{})) })
	}
}

// TestBoltHoldsVanishOnReopen: holds live in memory, so closing (or
// crashing) without committing gives the credits back.
func TestBoltHoldsVanishOnReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := Open(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acct, key := ledgertest.NewAccount(t, s, 10, nil)
	if _, err := s.Reserve(bg, key, "isochrone", 5, "never-finished"); err != nil {
		t.Fatal(err)
	}
	ledgertest.Charge(t, s, key, "directions", 1, "done")
	s.Close()
	s = openStore(t, path, ledger.Options{})
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 9 || a.Held != 0 {
		t.Errorf("after reopening: balance %d held %d, want 9 and 0", a.Balance, a.Held)
	}
	ledgertest.MustVerify(t, s)
}

// TestBoltLocked: a second process (here: a second Open) fails fast.
func TestBoltLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	openStore(t, path, ledger.Options{})
	start := time.Now()
	_, err := Open(bg, path, ledger.Options{LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ledger.ErrLocked) {
		t.Fatalf("second Open = %v, want ErrLocked", err)
	}
	// The holder is named (here this very process, which holds the first
	// Open's lock), with the ways out.
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != os.Getpid() || locked.Command == "" ||
		!strings.Contains(err.Error(), fmt.Sprintf("process %d (", os.Getpid())) || !strings.Contains(err.Error(), "postgres://") {
		t.Errorf("second Open = %v, want the holder (pid %d) named and the ways out", err, os.Getpid())
	}
	if time.Since(start) > time.Second {
		t.Errorf("second Open took %v", time.Since(start))
	}
}

// TestBoltVerifyFindsMismatch tampers with a balance behind the store's back.
func TestBoltVerifyFindsMismatch(t *testing.T) {
	s := openBoltTest(t, ledger.Options{}).(*boltStore)
	acct, key := ledgertest.NewAccount(t, s, 10, nil)
	ledgertest.Charge(t, s, key, "directions", 1, "r1")
	err := s.changeAccount("tampering", acct.AccountID, func(r *accountRecord) error { r.Balance += 4; return nil },
		func(*liveAccount) {})
	if err != nil {
		t.Fatal(err)
	}
	report, err := s.Verify(bg)
	if err != nil {
		t.Fatal(err)
	}
	if report.OK() || report.Mismatches[0].AccountID != acct.AccountID || report.Mismatches[0].Balance != 13 {
		t.Errorf("Verify = %+v, want a mismatch on %s with balance 13", report, acct.AccountID)
	}
}

// TestBoltWritesFreelist: the file records its free pages, so that opening
// it reads a few pages rather than all of them (a ledger grows by a usage
// record per charged request). It reads bbolt's meta pages (format 2 of
// go.etcd.io/bbolt: a 16-byte page header, then magic, version, page size,
// flags, root bucket, freelist page id, page count, txid): the newer meta
// must name a freelist page, not bbolt's "none" (all ones).
func TestBoltWritesFreelist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := Open(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, key := ledgertest.NewAccount(t, s, 100, nil)
	for i := range 20 {
		ledgertest.Charge(t, s, key, "directions", 1, fmt.Sprintf("r%d", i))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const magic = 0xED0CDAED
	var freelist, txid uint64
	for _, off := range []int{0, int(binary.LittleEndian.Uint32(raw[16+8:]))} { // pages 0 and 1
		m := raw[off+16:]
		if binary.LittleEndian.Uint32(m) != magic {
			t.Fatalf("no bbolt meta page at offset %d", off)
		}
		if tx := binary.LittleEndian.Uint64(m[48:]); tx >= txid {
			txid, freelist = tx, binary.LittleEndian.Uint64(m[32:])
		}
	}
	if freelist == ^uint64(0) {
		t.Errorf("the ledger's newest meta page (txid %d) names no freelist: every Open would read the whole file", txid)
	}
}

// TestOpenRefusesPostgresURL: a PostgreSQL URL handed to the embedded store
// directly is refused, and no file is created under its name.
func TestOpenRefusesPostgresURL(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, dsn := range []string{"postgres://postgres@127.0.0.1:5432/test", "postgresql://h/db"} {
		if _, err := Open(bg, dsn, ledger.Options{}); !errors.Is(err, ledger.ErrInvalidArgument) {
			t.Errorf("Open(%q) = %v, want ErrInvalidArgument", dsn, err)
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("refused opens left %d files behind", len(entries))
	}
}
