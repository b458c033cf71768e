package embedded

import (
	"context"
	"fmt"

	"github.com/mapsco/maps/pkg/ledger"

	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

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

// Recover opens the embedded ledger at path even if its journal is damaged
// or truncated, applies every intact record of the journal's current epoch
// (before and after the damage, in journal order), reports what could not
// be read, and closes the ledger cleanly, so that Open accepts it again.
// Without damage it replays the journal as Open does and reports nothing
// lost. It refuses what it cannot repair: a damaged, empty or missing
// bbolt file (restore it from a backup) and the journal of another ledger.
// It is the only way past a JournalDamageError, and only an operator
// should call it (mapd ledger recover): a charge in the damaged bytes is
// lost, and the cancellation of a charge may be too, which leaves that
// failed request charged.
func Recover(ctx context.Context, path string, opts ledger.Options) (RecoveryReport, error) {
	if shared.IsPostgres(path) {
		return RecoveryReport{}, fmt.Errorf("%w: recover is for the embedded ledger, not %s", ledger.ErrInvalidArgument, "a PostgreSQL one")
	}
	rep := RecoveryReport{Ledger: path, Journal: path + journalSuffix, LostRanges: []ByteRange{}}
	s, err := openBoltWith(ctx, path, withDefaults(opts), &rep)
	if err != nil {
		return rep, err
	}
	return rep, s.Close()
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
