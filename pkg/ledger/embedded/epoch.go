package embedded

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// closeJournal stops the healer, the committer and the applier (every
// acknowledged charge is then in bbolt), marks the ledger closed cleanly
// and closes the journal. If a charge could not be applied the ledger
// stays marked open, and the next Open replays the journal.
func (s *boltStore) closeJournal() error {
	s.cancelOutstanding()
	close(s.closing)
	s.commits.close()
	<-s.healed
	err := s.apply.close()
	if err == nil {
		err = s.update("marking the ledger closed", func(tx *bolt.Tx) error { return writeJournalMeta(tx, s.journal.epoch+1, false) })
		if err != nil {
			err = fmt.Errorf("marking ledger %s closed: %w", s.path, err)
		}
	}
	if cerr := s.journal.close(); err == nil {
		err = cerr
	}
	return err
}

// startOver is the committer's hook for a full journal; only the writer
// calls it, so nothing else is written meanwhile. It makes everything
// written durable, applies every committed charge, starts the journal over
// in a new epoch (which retires every record written so far), and writes
// the open charges again at the start of the new epoch, synced. It holds
// the open charges' lock from before the epoch's change until that copy is
// durable, so no charge settles, and no 200 leaves, in between.
func (s *boltStore) startOver() error {
	s.open.mu.Lock()
	defer s.open.mu.Unlock()
	if err := s.commits.drain(); err != nil {
		return err
	}
	if err := s.apply.barrier(); err != nil {
		return fmt.Errorf("%w: %w", errUnchanged, err)
	}
	if err := s.journal.startOver(s.raiseEpoch); err != nil {
		return fmt.Errorf("%w: %w", errUnchanged, err)
	}
	if err := s.carryOpen(); err != nil {
		return fmt.Errorf("carrying %d open charges into journal %s: %w", len(s.open.jobs), s.journal.path, err)
	}
	return nil
}

// raiseEpoch records a new journal epoch in a synced bbolt transaction.
func (s *boltStore) raiseEpoch(epoch uint64) error {
	return s.update("starting the journal over", func(tx *bolt.Tx) error { return writeJournalMeta(tx, epoch, true) })
}

// carryOpen writes the open charges at the start of the new epoch and
// syncs them. Call with s.open.mu held, from startOver.
func (s *boltStore) carryOpen() error {
	if len(s.open.jobs) == 0 {
		return nil
	}
	jobs := make([]*commitJob, 0, len(s.open.jobs))
	for job := range s.open.jobs {
		jobs = append(jobs, job)
	}
	ends, err := s.journal.pack(len(jobs), func(i int) *journalRecord { return &jobs[i].rec })
	if err != nil {
		return err
	}
	if len(ends) < len(jobs) {
		return fmt.Errorf("%d open charges do not fit", len(jobs))
	}
	return s.commits.writeSynced()
}
