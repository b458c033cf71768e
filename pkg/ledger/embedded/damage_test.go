package embedded

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// The faults of issue 19 item 4, reproduced on the files: a crash leaves
// acknowledged charges only in the journal, then the journal or the bbolt
// file is damaged. Open must refuse rather than lose or invent charges,
// Recover must apply what is intact and say what is lost, and no damage
// may panic or crash the process.

// crashedWithCharges makes a ledger whose process crashed after
// acknowledging n charges of one credit that are only in the journal, as
// the crash test's child leaves it (ids jr_00000, jr_00001, ...). It
// returns the path, the account and where each record starts in the
// journal. The account was funded with a million credits.
func crashedWithCharges(t *testing.T, n int) (path string, key ledger.KeyInfo, offs []int64) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	_, key = ledgertest.NewAccount(t, s, funded, &ledger.Caps{})
	s.Close()
	epoch := leaveOpen(t, path)
	now := time.Now().UTC()
	var buf []byte
	for i := range n {
		offs = append(offs, journalStart+int64(len(buf)))
		buf = append(buf, writeJournal(t, path, epoch, charged(key, fmt.Sprintf("jr_%05d", i), "directions", 1, now))...)
	}
	offs = append(offs, journalStart+int64(len(buf))) // the end
	if err := writeRecords(path+journalSuffix, buf); err != nil {
		t.Fatal(err)
	}
	return path, key, offs
}

// firstAtOrAfter is the index of the first record starting at or after off.
func firstAtOrAfter(offs []int64, off int64) int {
	for i, o := range offs {
		if o >= off {
			return i
		}
	}
	return len(offs)
}

const funded = 1_000_000

func TestBoltJournalDamage(t *testing.T) {
	const n = 2420 // the acknowledged charges only in the journal in the run
	for _, tc := range []struct {
		name string
		// damage edits the journal; it returns what Open must report:
		// where the damage starts, the intact records before and after it.
		damage    func(t *testing.T, jpath string, offs []int64) (off int64, before, after int)
		truncated bool
	}{
		{"truncated to 4 KiB", func(t *testing.T, jpath string, offs []int64) (int64, int, int) {
			mustTruncate(t, jpath, 4<<10)
			return 4 << 10, 0, 0
		}, true},
		{"truncated inside a record", func(t *testing.T, jpath string, offs []int64) (int64, int, int) {
			mustTruncate(t, jpath, offs[1000]+50)
			return offs[1000] + 50, 1000, 0
		}, true},
		{"one byte flipped", func(t *testing.T, jpath string, offs []int64) (int64, int, int) {
			editFile(t, jpath, offs[400]+30, func(b []byte) { b[0] ^= 0x20 }, 1)
			return offs[400], 400, n - 401
		}, false},
		{"a flipped length", func(t *testing.T, jpath string, offs []int64) (int64, int, int) {
			editFile(t, jpath, offs[7], func(b []byte) { b[1] ^= 0x01 }, 2)
			return offs[7], 7, n - 8
		}, false},
		{"64 KiB of zeros", func(t *testing.T, jpath string, offs []int64) (int64, int, int) {
			from := offs[400] + 10
			editFile(t, jpath, from, func(b []byte) { clear(b) }, 64<<10)
			return offs[400], 400, n - firstAtOrAfter(offs, from+64<<10)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, key, offs := crashedWithCharges(t, n)
			jpath := path + journalSuffix
			off, before, after := tc.damage(t, jpath, offs)

			for range 2 { // refusing changes nothing: the second Open refuses alike
				_, err := Open(bg, path, ledger.Options{})
				var d *JournalDamageError
				if !errors.As(err, &d) || !errors.Is(err, ledger.ErrCorrupt) {
					t.Fatalf("Open = %v, want a JournalDamageError", err)
				}
				if d.Offset != off || d.Before != before || d.After != after || d.Truncated != tc.truncated {
					t.Errorf("Open: %+v, want offset %d, %d before, %d after, truncated %v", *d, off, before, after, tc.truncated)
				}
				for _, want := range []string{fmt.Sprintf("offset %d", off), "mapd ledger recover --ledger " + path} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("Open's error does not say %q: %v", want, err)
					}
				}
			}

			rep, err := Recover(bg, path, ledger.Options{})
			if err != nil {
				t.Fatal(err)
			}
			wantCut := int64(0)
			if tc.truncated {
				wantCut = off
			}
			if !rep.Damaged || rep.Applied != before+after || rep.AfterDamage != after || rep.TruncatedAt != wantCut {
				t.Errorf("Recover: %+v, want %d applied, %d after the damage", rep, before+after, after)
			}
			if !tc.truncated && (len(rep.LostRanges) != 1 || rep.LostRanges[0].Offset != offs[before] || rep.LostRecordsEstimate < 1) {
				t.Errorf("Recover's lost ranges %+v (estimate %d), want one starting at %d", rep.LostRanges, rep.LostRecordsEstimate, offs[before])
			}
			s := openStore(t, path, ledger.Options{})
			if b := ledgertest.BalanceOf(t, s, key.AccountID); b != funded-int64(before+after) {
				t.Errorf("balance %d after recovery, want %d: the intact charges applied, the lost ones not", b, funded-before-after)
			}
			for i := range n {
				_, err := s.LookupUsage(bg, fmt.Sprintf("jr_%05d", i))
				intact := i < before || i >= n-after
				if intact != (err == nil) {
					t.Errorf("charge %d (intact %v): LookupUsage = %v", i, intact, err)
					break
				}
			}
			ledgertest.MustVerify(t, s)
		})
	}
}

func mustTruncate(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

// editFile reads n bytes of the file at off, lets edit change them and
// writes them back.
func editFile(t *testing.T, path string, off int64, edit func([]byte), n int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	edit(b)
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// TestBoltJournalIntactNotDamaged: an intact crashed journal is no damage:
// Open replays it and Recover reports nothing lost.
func TestBoltJournalIntactNotDamaged(t *testing.T) {
	path, key, _ := crashedWithCharges(t, 300)
	rep, err := Recover(bg, path, ledger.Options{})
	if err != nil || rep.Damaged || rep.Applied != 300 || len(rep.LostRanges) != 0 {
		t.Fatalf("Recover of an intact journal: %+v, %v", rep, err)
	}
	s := openStore(t, path, ledger.Options{})
	if b := ledgertest.BalanceOf(t, s, key.AccountID); b != funded-300 {
		t.Errorf("balance %d, want %d", b, funded-300)
	}
	ledgertest.MustVerify(t, s)
}

// TestBoltLedgerFileMissingOrEmpty: a journal means a ledger existed, so an
// empty or missing bbolt file beside it is refused, and so is an empty
// file alone; Recover refuses them too (only a backup helps).
func TestBoltLedgerFileMissingOrEmpty(t *testing.T) {
	for _, tc := range []struct {
		name          string
		edit          func(path string) error
		journal, want string
	}{
		{"zero-length ledger", func(p string) error { return os.Truncate(p, 0) }, "keep", "is empty (0 bytes), but its journal"},
		{"missing ledger", os.Remove, "keep", "is missing, but its journal"},
		{"zero-length ledger, no journal", func(p string) error { return os.Truncate(p, 0) }, "remove", "it is not a ledger"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, _, _ := crashedWithCharges(t, 10)
			if err := tc.edit(path); err != nil {
				t.Fatal(err)
			}
			if tc.journal == "remove" {
				os.Remove(path + journalSuffix)
			}
			_, err := Open(bg, path, ledger.Options{})
			if !errors.Is(err, ledger.ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open = %v, want ErrCorrupt saying %q", err, tc.want)
			}
			if _, err := Recover(bg, path, ledger.Options{}); !errors.Is(err, ledger.ErrCorrupt) {
				t.Errorf("Recover = %v, want ErrCorrupt", err)
			}
			if st, err := os.Stat(path); err == nil && st.Size() != 0 {
				t.Errorf("the refused ledger was written: %d bytes", st.Size())
			}
		})
	}
	// A new ledger is still made where neither file exists.
	s := openStore(t, filepath.Join(t.TempDir(), "new.db"), ledger.Options{})
	ledgertest.NewAccount(t, s, 1, nil)
}

// TestBoltJournalOfAnotherLedger: the journal's header names its ledger;
// one moved beside another ledger is refused, even after a clean close.
func TestBoltJournalOfAnotherLedger(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	for _, p := range []string{a, b} {
		s := openStore(t, p, ledger.Options{})
		ledgertest.NewAccount(t, s, 1, nil)
		s.Close()
	}
	if err := os.Rename(a+journalSuffix, b+journalSuffix); err != nil {
		t.Fatal(err)
	}
	_, err := Open(bg, b, ledger.Options{})
	if !errors.Is(err, ledger.ErrCorrupt) || !strings.Contains(err.Error(), "belongs to ledger") || !strings.Contains(err.Error(), "(a.db)") {
		t.Errorf("Open with another ledger's journal = %v, want ErrCorrupt naming a.db", err)
	}
}

// TestBoltFormat1Ledger: a ledger left by the previous format (no journal
// header, records from offset 0), crashed with 40 charges and a
// cancellation only in its journal, opens: the journal is replayed once and
// converted, and the ledger reopens as format 2. testdata/format1 was made
// by the code of commit b60099f (60 charges of 1 credit applied, 40 of 2
// journaled, one 5-credit isochrone reserved and released).
func TestBoltFormat1Ledger(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ledger.db")
	for _, name := range []string{"ledger.db", "ledger.db-journal"} {
		gunzip(t, filepath.Join("testdata", "format1", name+".gz"), filepath.Join(dir, name))
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "format1", "account"))
	if err != nil {
		t.Fatal(err)
	}
	accountID := strings.Fields(string(raw))[0]
	for round := range 2 {
		s := openStore(t, path, ledger.Options{})
		a, err := s.GetAccount(bg, accountID)
		if err != nil {
			t.Fatal(err)
		}
		if a.Balance != 1000-60-80 || a.Usage.Requests != 100 || a.Usage.ByOperation["matrix"] != (ledger.OperationTotals{Credits: 80, Requests: 40}) {
			t.Errorf("round %d: %+v, want the 40 journaled matrix charges replayed once", round, a)
		}
		if _, err := s.LookupUsage(bg, "req_released"); !errors.Is(err, ledger.ErrUnknownRequest) {
			t.Errorf("round %d: the released request: %v", round, err)
		}
		ledgertest.MustVerify(t, s)
		s.Close()
		h, err := readJournalHeaderFile(path + journalSuffix)
		if err != nil || h.Name != "ledger.db" {
			t.Fatalf("round %d: the journal's header after conversion: %+v, %v", round, h, err)
		}
	}
}

// TestBoltFormat1Truncated: a format 1 journal truncated below any journal's
// size after a crash is refused too.
func TestBoltFormat1Truncated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ledger.db")
	for _, name := range []string{"ledger.db", "ledger.db-journal"} {
		gunzip(t, filepath.Join("testdata", "format1", name+".gz"), filepath.Join(dir, name))
	}
	mustTruncate(t, path+journalSuffix, 4<<10)
	var d *JournalDamageError
	if _, err := Open(bg, path, ledger.Options{}); !errors.As(err, &d) || !d.Truncated {
		t.Errorf("Open of a truncated format 1 journal = %v, want a truncated JournalDamageError", err)
	}
}

func gunzip(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
