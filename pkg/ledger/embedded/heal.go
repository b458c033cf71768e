package embedded

import (
	"time"

	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// Health reports whether the embedded store can take charges: nil, or an
// ErrUnavailable error naming the write that fails. mapd's readiness asks
// it (the PostgreSQL store has no such state: each call reaches the
// server).
func (s *boltStore) Health() error { return s.health.check() }

// heal mends the journal after a failed write or sync: while the
// committer is broken it tries a start-over every retryInterval (see
// committer.repair). It runs until the store closes.
func (s *boltStore) heal() {
	defer close(s.healed)
	for {
		select {
		case <-s.closing:
			return
		case <-s.sick:
		}
		for s.commits.brokenErr() != nil {
			select {
			case <-s.closing:
				return
			case <-time.After(retryInterval):
			}
			_ = s.commits.repair() // a failure breaks it again: the loop goes on
		}
	}
}

// journalBroke and journalMended are the committer's hooks: the journal's
// part of health, and the healer's cue.
func (s *boltStore) journalBroke(err error) {
	s.health.set(partJournal, err)
	shared.Signal(s.sick)
}

func (s *boltStore) journalMended() { s.health.set(partJournal, nil) }
