package ledger

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// openJournal opens the journal beside the bbolt file, applies to bbolt
// the records a crashed process left in it (those already applied are
// skipped) and starts a new epoch, all in one synced bbolt transaction.
func (s *boltStore) openJournal(size int64) (*journal, error) {
	var epoch uint64
	var wasOpen bool
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		epoch, wasOpen, err = readJournalMeta(tx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("opening ledger %s: %w", s.path, err)
	}
	j, err := openJournal(s.path+journalSuffix, size, wasOpen)
	if err != nil {
		return nil, fmt.Errorf("%w: opening ledger %s: %v", ErrUnavailable, s.path, err)
	}
	recs, err := j.scan(epoch)
	if err == nil {
		err = s.db.Update(func(tx *bolt.Tx) error {
			if err := applyRecords(tx, recs); err != nil {
				return err
			}
			return writeJournalMeta(tx, epoch+1, true)
		})
	}
	if err != nil {
		j.close()
		return nil, fmt.Errorf("%w: replaying %d journaled charges into ledger %s: %v", ErrUnavailable, len(recs), s.path, err)
	}
	j.epoch = epoch + 1
	return j, nil
}

// closeJournal stops the committer and the applier (every acknowledged
// charge is then in bbolt), marks the ledger closed cleanly and closes the
// journal. If a charge could not be applied the ledger stays marked open,
// and the next Open replays the journal.
func (s *boltStore) closeJournal() error {
	s.cancelOutstanding()
	s.commits.close()
	err := s.apply.close()
	if err == nil {
		err = s.db.Update(func(tx *bolt.Tx) error { return writeJournalMeta(tx, s.journal.epoch+1, false) })
		if err != nil {
			err = fmt.Errorf("marking ledger %s closed: %w", s.path, err)
		}
	}
	if cerr := s.journal.close(); err == nil {
		err = cerr
	}
	return err
}
