package embedded

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger"
)

// journalMeta is what bbolt's meta bucket says about the journal.
type journalMeta struct {
	epoch uint64
	// open: the last process to open the ledger did not close it (it
	// crashed), so the journal may hold charges that are not in bbolt.
	open bool
	// format is journalFormat once a header was written, 0 before.
	format int
	id     [16]byte // the ledger's id, which the journal's header names
	hasID  bool
	// applied counts the charges the applier wrote to bbolt since the
	// epoch began: with the acknowledgement mark, how many of the records
	// a damaged journal lost were in bbolt already (journal_mark.go).
	applied int64
}

func readJournalMeta(tx *bolt.Tx) (journalMeta, error) {
	meta := tx.Bucket([]byte(bucketMeta))
	var m journalMeta
	if v := meta.Get([]byte(metaJournalEpoch)); v != nil {
		epoch, err := strconv.ParseUint(string(v), 10, 64)
		if err != nil {
			return m, fmt.Errorf("reading the journal epoch %q: %w", v, err)
		}
		m.epoch = epoch
	}
	m.open = string(meta.Get([]byte(metaJournalOpen))) == "1"
	m.applied, _ = strconv.ParseInt(string(meta.Get([]byte(metaJournalApplied))), 10, 64)
	m.format, _ = strconv.Atoi(string(meta.Get([]byte(metaJournalFormat))))
	if v := meta.Get([]byte(metaLedgerID)); v != nil {
		if n, err := hex.Decode(m.id[:], v); err != nil || n != len(m.id) {
			return m, fmt.Errorf("reading the ledger id %q: not 32 hex digits", v)
		}
		m.hasID = true
	}
	return m, nil
}

// writeJournalMeta records a new journal epoch and whether a process has
// the ledger open.
func writeJournalMeta(tx *bolt.Tx, epoch uint64, open bool) error {
	meta := tx.Bucket([]byte(bucketMeta))
	flag := "0"
	if open {
		flag = "1"
	}
	if err := meta.Put([]byte(metaJournalEpoch), []byte(strconv.FormatUint(epoch, 10))); err != nil {
		return err
	}
	if err := meta.Put([]byte(metaJournalApplied), []byte("0")); err != nil {
		return err
	}
	return meta.Put([]byte(metaJournalOpen), []byte(flag))
}

// writeJournalFormat records the ledger's id and that its journal has a
// header.
func writeJournalFormat(tx *bolt.Tx, id [16]byte) error {
	meta := tx.Bucket([]byte(bucketMeta))
	if err := meta.Put([]byte(metaLedgerID), []byte(hex.EncodeToString(id[:]))); err != nil {
		return err
	}
	return meta.Put([]byte(metaJournalFormat), []byte(strconv.Itoa(journalFormat)))
}

// openJournal opens the journal beside the bbolt file and brings bbolt up
// to date with it: after a crash it applies the records the crashed
// process left (those already applied are skipped), then starts a new
// epoch, in one synced bbolt transaction. It refuses a journal that is
// damaged or truncated, or another ledger's (journal.go), unless rep is
// non-nil (Recover): then it applies every intact record and reports in
// rep what could not be read.
//
// A format 1 journal (no header) is replayed from offset 0 and given its
// header afterwards; a crash in between replays nothing twice (the epoch
// was raised) and converts it on the next Open.
func (s *boltStore) openJournal(size int64, rep *RecoveryReport) (*journal, error) {
	var meta journalMeta
	err := s.view("reading the journal's state", func(tx *bolt.Tx) error {
		var err error
		meta, err = readJournalMeta(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	legacy := meta.format != journalFormat && meta.epoch > 0
	if !meta.hasID {
		if _, err := rand.Read(meta.id[:]); err != nil {
			return nil, fmt.Errorf("opening ledger %s: making its id: %w", s.path, err)
		}
	}
	header := journalHeader{LedgerID: meta.id, Name: journalName(s.path)}
	j, err := openJournalFile(s.path+journalSuffix, meta.open)
	switch {
	case errors.Is(err, ledger.ErrCorrupt):
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("%w: opening ledger %s: %w", ledger.ErrUnavailable, s.path, err)
	}
	if err := s.replayJournal(j, meta, legacy, size, header, rep); err != nil {
		j.close()
		return nil, err
	}
	j.epoch = meta.epoch + 1
	return j, nil
}

// replayJournal checks the journal, applies what it must to bbolt and
// raises the epoch, and writes the journal's header: before the bbolt
// transaction for a format 2 journal (a crash in between replays the same
// records again), after it for a format 1 one (whose first records the
// header overwrites).
func (s *boltStore) replayJournal(j *journal, meta journalMeta, legacy bool, size int64, header journalHeader, rep *RecoveryReport) error {
	recs, err := s.journalRecords(j, meta, legacy, rep)
	if err != nil {
		return err
	}
	if !legacy {
		if err := j.prepare(size, header); err != nil {
			return fmt.Errorf("%w: opening ledger %s: %w", ledger.ErrUnavailable, s.path, err)
		}
	}
	err = s.update("replaying "+strconv.Itoa(len(recs))+" journaled charges", func(tx *bolt.Tx) error {
		if err := applyRecords(tx, s.voidUnanswered(tx, recs)); err != nil {
			return err
		}
		if !legacy {
			if err := writeJournalFormat(tx, meta.id); err != nil {
				return err
			}
		}
		return writeJournalMeta(tx, meta.epoch+1, true)
	})
	if err != nil || !legacy {
		return err
	}
	if err := j.prepare(size, header); err != nil {
		return fmt.Errorf("%w: converting journal %s: %w", ledger.ErrUnavailable, j.path, err)
	}
	err = s.update("converting the journal", func(tx *bolt.Tx) error { return writeJournalFormat(tx, meta.id) })
	if err == nil {
		s.opts.Logger.Info("ledger: journal converted to format 2 (a header naming its ledger; records start at 4 KiB)",
			"journal", j.path, "replayed", len(recs))
	}
	return err
}

// journalRecords returns the records Open must apply: none after a clean
// close, else the intact records of the current epoch. It refuses the
// journal of another ledger, a damaged header, and (unless rep is
// non-nil) a damaged or truncated journal.
func (s *boltStore) journalRecords(j *journal, meta journalMeta, legacy bool, rep *RecoveryReport) ([]journalRecord, error) {
	start, want := int64(journalStart), int64(0)
	switch {
	case legacy:
		start = 0
		if meta.open && j.size < minJournalSize {
			want = minJournalSize // no journal was ever smaller
		}
	case meta.format == journalFormat:
		h, err := j.readHeader()
		switch {
		case err == nil && meta.hasID && h.LedgerID != meta.id:
			return nil, corrupt("journal %s belongs to ledger %x (%s), not to %s (ledger %x); move it back beside its own ledger, or %s",
				j.path, h.LedgerID, h.Name, s.path, meta.id, restoreHint)
		case err == nil:
			want = h.Size
		case j.size < journalStart:
			want = journalStart // truncated into its header
		case meta.open && rep == nil:
			return nil, corrupt("the header of journal %s is damaged (%v), so it cannot be told apart from another ledger's; run `mapd ledger recover --ledger %s` to apply its intact records, or %s",
				j.path, err, s.path, restoreHint)
		}
	}
	if !meta.open {
		return nil, nil // closed cleanly: every record is in bbolt
	}
	sc, err := j.scanEpoch(start, meta.epoch)
	if err != nil {
		return nil, fmt.Errorf("%w: opening ledger %s: %w", ledger.ErrUnavailable, s.path, err)
	}
	sc.wantSize = want
	if !legacy {
		if err := sc.readMarkFor(j, meta.epoch); err != nil && rep == nil {
			return nil, err
		}
		if err := s.countApplied(&sc, meta.applied); err != nil {
			return nil, err
		}
	}
	d := sc.damage(j.path)
	if rep != nil {
		rep.fill(sc, d)
	}
	switch {
	case d == nil:
		return sc.records(false), nil
	case rep == nil:
		return nil, d
	}
	return sc.records(true), nil
}

// countApplied sets sc.appliedLost: of the charges the applier wrote to
// bbolt in the epoch (applied), those that are not among the intact
// records, so were lost from the journal but are safe in bbolt.
func (s *boltStore) countApplied(sc *journalScan, applied int64) error {
	if !sc.hasMark {
		return nil
	}
	var intactApplied int64
	err := s.view("counting applied charges", func(tx *bolt.Tx) error {
		usage := tx.Bucket([]byte(bucketUsage))
		for _, run := range sc.runs {
			for i, rec := range run.recs {
				if run.ends[i] <= sc.mark.end && !rec.Cancel && usage.Get([]byte(rec.RequestID)) != nil {
					intactApplied++
				}
			}
		}
		return nil
	})
	sc.appliedLost = max(0, applied-intactApplied)
	return err
}
