package embedded

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"strings"

	"github.com/mapsco/maps/pkg/ledger"
)

// Reading the journal back: replay at Open, Recover and Verify. See
// journal.go for the layout and for why an intact record after the end of
// the sequence means damage.

// epochRun is a stretch of consecutive intact records of one epoch.
type epochRun struct {
	off, end int64 // the byte range the records fill
	recs     []journalRecord
	ends     []int64 // where each record ends
}

// journalScan is what the journal holds of one epoch: runs[0] starts
// where records start (it may be empty), and any later run is intact
// records found past damage.
type journalScan struct {
	runs []epochRun
	// fileSize is the file's size, and wantSize what its header says (0
	// when there is no trustworthy header): a smaller file was truncated.
	fileSize, wantSize int64
	// mark is the acknowledgement mark of the epoch, if the header page
	// holds one (journal_mark.go).
	mark    ackMark
	hasMark bool
	// appliedLost counts charges in bbolt whose records are not intact.
	appliedLost int64
}

// scanEpoch reads every intact record of epoch from start to the end of
// the file. It reads the whole file: Open calls it only after a crash.
func (j *journal) scanEpoch(start int64, epoch uint64) (journalScan, error) {
	sc := journalScan{fileSize: j.size}
	var b []byte
	if j.size > start {
		b = make([]byte, j.size-start)
		if _, err := j.f.ReadAt(b, start); err != nil {
			return sc, fmt.Errorf("reading journal %s: %w", j.path, err)
		}
	}
	for at := 0; at >= 0; at = nextIntact(b, at, epoch) {
		run, err := parseRun(b, at, epoch)
		if err != nil {
			return sc, fmt.Errorf("journal %s: %w", j.path, err)
		}
		run.off += start
		run.end += start
		for i := range run.ends {
			run.ends[i] += start
		}
		sc.runs = append(sc.runs, run)
		at = int(run.end - start)
	}
	return sc, nil
}

// parseRun decodes the intact records of epoch from b[at:] on.
func parseRun(b []byte, at int, epoch uint64) (epochRun, error) {
	run := epochRun{off: int64(at)}
	for {
		n, ok := intactAt(b, at, epoch)
		if !ok {
			run.end = int64(at)
			return run, nil
		}
		var rec journalRecord
		if err := json.Unmarshal(b[at+journalRecordHead:at+n], &rec); err != nil {
			return run, fmt.Errorf("decoding the record at offset %d: %w", at, err)
		}
		run.recs = append(run.recs, rec)
		run.ends = append(run.ends, int64(at+n))
		at += n
	}
}

// intactAt reports whether b holds a whole record of epoch at offset at
// whose CRC holds, and its length with its head.
func intactAt(b []byte, at int, epoch uint64) (int, bool) {
	if at < 0 || len(b)-at < journalRecordHead {
		return 0, false
	}
	head := b[at:]
	n := int64(binary.LittleEndian.Uint32(head))
	if n == 0 || n > int64(len(head)-journalRecordHead) || binary.LittleEndian.Uint64(head[8:]) != epoch {
		return 0, false
	}
	end := journalRecordHead + int(n)
	if crc32.Checksum(head[8:end], castagnoli) != binary.LittleEndian.Uint32(head[4:]) {
		return 0, false
	}
	return end, true
}

// nextIntact returns the offset of the first intact record of epoch after
// offset at, or -1. It looks for the epoch's 8 bytes, which every record
// of the epoch carries 8 bytes from its start (zeros and JSON rarely hold
// them), and checks each candidate's CRC.
func nextIntact(b []byte, at int, epoch uint64) int {
	var pattern [8]byte
	binary.LittleEndian.PutUint64(pattern[:], epoch)
	for from := at + 1; from+journalRecordHead <= len(b); {
		i := bytes.Index(b[from+8:], pattern[:])
		if i < 0 {
			return -1
		}
		cand := from + i
		if _, ok := intactAt(b, cand, epoch); ok {
			return cand
		}
		from = cand + 1
	}
	return -1
}

// records returns the intact records in journal order: those before the
// first damage, or with all, every one found.
func (sc journalScan) records(all bool) []journalRecord {
	if len(sc.runs) == 0 {
		return nil
	}
	if !all {
		return sc.runs[0].recs
	}
	var recs []journalRecord
	for _, run := range sc.runs {
		recs = append(recs, run.recs...)
	}
	return recs
}

// damage says how the journal is damaged, or returns nil if its epoch
// ends cleanly.
func (sc journalScan) damage(path string) *JournalDamageError {
	truncated := sc.wantSize > 0 && sc.fileSize < sc.wantSize
	missing, missingCharges := sc.missing()
	if len(sc.runs) <= 1 && !truncated && missing == 0 {
		return nil
	}
	e := &JournalDamageError{Path: path, Size: sc.fileSize, WantSize: sc.wantSize, Truncated: truncated,
		Missing: missing, MissingCharges: missingCharges, Marked: sc.mark.records,
		Unapplied: max(0, missingCharges-sc.appliedLost)}
	if len(sc.runs) > 0 {
		e.Offset, e.Before = sc.runs[0].end, len(sc.runs[0].recs)
	}
	if truncated && len(sc.runs) <= 1 {
		e.Offset = sc.fileSize
	}
	for _, run := range sc.runs[min(1, len(sc.runs)):] {
		e.After += len(run.recs)
	}
	return e
}

// JournalDamageError is why Open refused an embedded ledger whose journal
// is damaged: charges may be lost, so Open changes nothing, and only
// Recover (mapd ledger recover) gets past it. errors.Is(err, ErrCorrupt)
// holds.
type JournalDamageError struct {
	Path string
	// Offset is where the first damaged record starts, or where a
	// truncated journal ends.
	Offset int64
	// Before and After count the intact records of the current epoch
	// before Offset and after the damage.
	Before, After int
	// Truncated: the file is Size bytes, shorter than the WantSize its
	// header says.
	Truncated      bool
	Size, WantSize int64
	// Missing counts the records (MissingCharges the charges among them)
	// that the journal's acknowledgement mark says were written, Marked in
	// all, and that are not intact (journal_mark.go).
	Missing, MissingCharges, Marked int64
	// Unapplied counts the missing charges that are not in bbolt either:
	// requests served (or in flight) and not billed.
	Unapplied int64
}

func (e *JournalDamageError) Error() string {
	var what string
	if e.Truncated {
		what = fmt.Sprintf("is truncated: it is %d bytes and its header says %d, so the records written after offset %d are lost", e.Size, e.WantSize, e.Size)
	}
	if e.After > 0 || !e.Truncated {
		if what != "" {
			what += ", and it "
		}
		what += fmt.Sprintf("is damaged at offset %d: %d intact records of its current epoch follow the damage", e.Offset, e.After)
	}
	if e.Missing > 0 {
		what += fmt.Sprintf("; its acknowledgement mark says %d records were written in its current epoch, and %d of them are not intact: %d charges not yet in the ledger file, %d cancellations",
			e.Marked, e.Missing, e.Unapplied, e.Missing-e.MissingCharges)
	}
	ledger := strings.TrimSuffix(e.Path, journalSuffix)
	return fmt.Sprintf("ledger: journal %s %s (%d precede it); charges acknowledged to clients may be in the damaged part, so nothing was changed. "+
		"Run `mapd ledger recover --ledger %s` to apply every intact record and report what is lost, or %s",
		e.Path, what, e.Before, ledger, restoreHint)
}

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *JournalDamageError) Is(target error) bool { return target == ledger.ErrCorrupt }

// journalName is the ledger file's base name, for the journal's header.
func journalName(ledgerPath string) string { return filepath.Base(ledgerPath) }

// RecoveryReport says what Recover found in an embedded ledger's journal
// and what could not be read back.
type RecoveryReport struct {
	Ledger  string `json:"ledger"`
	Journal string `json:"journal"`
	// Damaged: the journal was damaged or truncated, so something is lost.
	Damaged bool `json:"damaged"`
	// Applied counts the intact records of the journal's current epoch
	// (charges and cancellations) that were replayed into the ledger,
	// AfterDamage those of them found past the first damage.
	Applied     int `json:"records_applied"`
	AfterDamage int `json:"records_after_damage"`
	// LostRanges are the damaged byte ranges between intact records, and
	// LostBytes their total.
	LostRanges []ByteRange `json:"lost_ranges"`
	LostBytes  int64       `json:"lost_bytes"`
	// TruncatedAt is where a truncated journal ended, and MissingBytes how
	// much of it was gone; what those bytes held cannot be counted.
	TruncatedAt  int64 `json:"truncated_at,omitempty"`
	MissingBytes int64 `json:"missing_bytes,omitempty"`
	// LostRecordsEstimate is LostBytes over the mean size of the intact
	// records: about how many charges or cancellations were in the
	// damaged ranges. Their request ids cannot be read.
	LostRecordsEstimate int `json:"lost_records_estimate"`
	// Counted: the journal's acknowledgement mark was intact, so
	// LostRecords and LostCharges are exact: the records (and the charges
	// among them) that were written, acknowledged or about to be, and
	// could not be applied. Without it (a journal truncated into its
	// first page, or written before marks) only the estimate is known.
	// LostCharges counts only charges not in the ledger file either (the
	// applier had not written them): requests served, or in flight, and
	// not billed. LostCancellations counts cancellations lost: a failed
	// request whose charge survived is left charged.
	Counted           bool  `json:"counted"`
	LostRecords       int64 `json:"lost_records"`
	LostCharges       int64 `json:"lost_charges"`
	LostCancellations int64 `json:"lost_cancellations"`
	// Note says in words what the figures mean for the books.
	Note string `json:"note"`
}

// ByteRange is a range of a file.
type ByteRange struct {
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
}

// fill records what a scan found: every intact record is applied, and the
// gaps between runs and a truncated tail are lost.
func (rep *RecoveryReport) fill(sc journalScan, d *JournalDamageError) {
	var recBytes int64
	for i, run := range sc.runs {
		rep.Applied += len(run.recs)
		recBytes += run.end - run.off
		if i > 0 {
			rep.AfterDamage += len(run.recs)
			gap := ByteRange{Offset: sc.runs[i-1].end, Bytes: run.off - sc.runs[i-1].end}
			rep.LostRanges = append(rep.LostRanges, gap)
			rep.LostBytes += gap.Bytes
		}
	}
	if d == nil {
		rep.Note = "the journal was intact: nothing is lost"
		return
	}
	rep.Damaged = true
	if d.Truncated {
		rep.TruncatedAt, rep.MissingBytes = d.Size, d.WantSize-d.Size
	}
	if rep.Applied > 0 && rep.LostBytes > 0 {
		rep.LostRecordsEstimate = max(1, int(rep.LostBytes*int64(rep.Applied)/recBytes))
	}
	if sc.hasMark {
		rep.Counted, rep.LostRecords, rep.LostCharges = true, d.Missing, d.Unapplied
		rep.LostCancellations = d.Missing - d.MissingCharges
		rep.LostRecordsEstimate = int(d.Missing)
	}
	counted := "The journal's acknowledgement mark was lost with the damage, so how many records are lost is only estimated. "
	if rep.Counted {
		counted = fmt.Sprintf("Its acknowledgement mark counts exactly %d records lost: %d charges not in the ledger file (served and not billed), %d cancellations (their failed requests stay charged if the charge survived). ",
			rep.LostRecords, rep.LostCharges, rep.LostCancellations)
	}
	rep.Note = counted + fmt.Sprintf("%d intact records were applied, %d of them found after the damage. "+
		"The records in the damaged bytes are lost: charges there are not billed, and a cancellation there leaves its failed request charged. "+
		"Compare the usage of the requests answered around the crash with your access log.", rep.Applied, rep.AfterDamage)
}

// missing counts the records (and the charges among them) that the mark
// says the epoch holds below its end and the scan did not find intact.
// Intact records past the mark's end (written just before a crash, never
// acknowledged) do not count.
func (sc journalScan) missing() (records, charges int64) {
	if !sc.hasMark {
		return 0, 0
	}
	var n, c int64
	for _, run := range sc.runs {
		for i, rec := range run.recs {
			if run.ends[i] > sc.mark.end {
				break
			}
			n++
			if !rec.Cancel {
				c++
			}
		}
	}
	return max(0, sc.mark.records-n), max(0, sc.mark.charges-c)
}

// readMarkFor sets sc's mark from j's header page if it is epoch's. A
// damaged mark is damage: the error says so.
func (sc *journalScan) readMarkFor(j *journal, epoch uint64) error {
	m, err := j.readMark()
	switch {
	case errors.Is(err, errNoMark):
		return nil
	case err != nil:
		return corrupt("journal %s: %v; %s", j.path, err, restoreHint)
	case m.epoch == epoch:
		sc.mark, sc.hasMark = m, true
	}
	return nil
}
