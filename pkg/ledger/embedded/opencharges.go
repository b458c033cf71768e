package embedded

import (
	"fmt"
	"sync"

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

// openCharges are the charges written in the journal's current epoch whose
// requests have neither committed nor been released. When the journal
// starts over they are written again at the start of the new epoch, so that
// a crash still finds the charges of the requests in flight.
type openCharges struct {
	mu   sync.Mutex
	jobs map[*commitJob]struct{}
}

func newOpenCharges() *openCharges {
	return &openCharges{jobs: make(map[*commitJob]struct{})}
}

// wrote is the committer's hook: the charges of a write are open from
// before they are acknowledged.
func (o *openCharges) wrote(jobs []*commitJob) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, job := range jobs {
		if !job.rec.Cancel {
			o.jobs[job] = struct{}{}
		}
	}
}

// charge settles a charge its request committed: the applier writes it to
// bbolt, and readers that follow (GetAccount, LookupUsage) find it. While
// the journal starts over it holds o.mu, so charge, and the 200 after it,
// wait until the charge's new copy is durable.
func (o *openCharges) charge(job *commitJob, apply *applier) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.jobs, job) // in one step with the hand-over: a start-over carries it, or applies it
	apply.add(job.rec)
}

// void settles a charge that will not be applied: its request was
// released, or its record failed. Its request id is free again.
func (o *openCharges) void(job *commitJob, apply *applier) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.jobs, job)
	if job.claimed {
		job.claimed = false
		apply.unclaim(job.rec.RequestID)
	}
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
