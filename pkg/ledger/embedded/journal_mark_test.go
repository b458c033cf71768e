package embedded

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/ledger"
)

// TestBoltAckMark (issue 34 item 2): a ledger killed with -9 under load,
// then its journal's tail zeroed or truncated. Before, zeros at the tail
// looked like the journal's end: Open replayed less, verify was green and
// the charges there were gone. Now the acknowledgement mark in the header
// page says how many records were written: Open refuses, and Recover
// counts exactly the records lost, the charges among them that are in
// the ledger file nowhere else, and the lost cancellations.
func TestBoltAckMark(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, path string, end int64) (from int64)
	}{
		{"last 64 KiB zeroed", func(t *testing.T, path string, end int64) int64 {
			from := max(journalStart, end-64<<10)
			zeroRange(t, path, from, end)
			return from
		}},
		{"every record zeroed", func(t *testing.T, path string, end int64) int64 {
			zeroRange(t, path, journalStart, end)
			return journalStart
		}},
		{"truncated", func(t *testing.T, path string, end int64) int64 {
			from := max(journalStart, end-20<<10)
			mustTruncate(t, path, from)
			return from
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { ackMarkDamage(t, tc.damage) })
	}
}

func ackMarkDamage(t *testing.T, damage func(t *testing.T, path string, end int64) int64) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := Open(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	acct, err := s.CreateAccount(bg, 1_000_000, &ledger.Caps{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	acked, _ := runAndKill(t, path, acct.Key.Secret.Reveal(), ledger.Options{}, 1500)

	// What the killed process left: its records and its mark.
	j, err := openJournalFile(path+journalSuffix, true)
	if err != nil {
		t.Fatal(err)
	}
	mark, err := j.readMark()
	if err != nil {
		t.Fatalf("the killed process's mark: %v", err)
	}
	sc, err := j.scanEpoch(journalStart, mark.epoch)
	j.close()
	if err != nil {
		t.Fatal(err)
	}
	// A kill between a record's write and the mark's leaves records past
	// the mark: written, never acknowledged. None may be missing before it.
	if len(sc.runs) != 1 || int64(len(sc.runs[0].recs)) < mark.records || sc.runs[0].end < mark.end {
		t.Fatalf("the undamaged journal: %d runs, %d records to %d; the mark says %+v", len(sc.runs), len(sc.runs[0].recs), sc.runs[0].end, mark)
	}
	from := damage(t, path+journalSuffix, mark.end)
	var lost []journalRecord
	for i, rec := range sc.runs[0].recs[:mark.records] { // the ledger counts what its mark covers
		if sc.runs[0].ends[i] > from {
			lost = append(lost, rec)
		}
	}

	_, err = Open(bg, path, ledger.Options{})
	var d *JournalDamageError
	if !errors.As(err, &d) || d.Missing != int64(len(lost)) {
		t.Fatalf("Open after the damage: %v; want a JournalDamageError missing %d records", err, len(lost))
	}
	rep, err := Recover(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s = openStore(t, path, ledger.Options{})
	defer s.Close()
	var cancels, unbilled int64
	for _, rec := range lost {
		if rec.Cancel {
			cancels++
		} else if _, err := s.LookupUsage(bg, rec.RequestID); errors.Is(err, ledger.ErrUnknownRequest) {
			unbilled++
		}
	}
	t.Logf("%d acknowledged, %d records in the damage; recover: %s", len(acked), len(lost), rep.Note)
	if !rep.Counted || rep.LostRecords != int64(len(lost)) || rep.LostCharges != unbilled || rep.LostCancellations != cancels {
		t.Errorf("recover counted %v: %d records, %d charges, %d cancellations lost; want %d, %d, %d",
			rep.Counted, rep.LostRecords, rep.LostCharges, rep.LostCancellations, len(lost), unbilled, cancels)
	}
	if len(lost) == 0 || unbilled == 0 {
		t.Errorf("the damage hit %d records, %d charges not in the ledger file: the test proves nothing", len(lost), unbilled)
	}
}

func zeroRange(t *testing.T, path string, from, to int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, to-from), from); err != nil {
		t.Fatal(err)
	}
}
