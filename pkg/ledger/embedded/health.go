package embedded

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// retryInterval is how often the embedded store tries again to write
// after its disk failed (a full filesystem): the applier its bbolt
// transaction, the healer a start-over of the journal. Once a write
// succeeds, metering resumes within about this long.
const retryInterval = 100 * time.Millisecond

// The parts of the embedded store that write, for health.
const (
	partBooks   = iota // the applier, writing charges to bbolt
	partJournal        // the committer, writing and syncing the journal
	parts
)

// health is whether the embedded store can write its files. While a part
// fails, Reserve refuses new charges with ErrUnavailable (503: never an
// unmetered 200, and nothing piles up that cannot be written), readiness
// says why, and the failing part retries by itself; the store is up again
// as soon as a write succeeds. Each change of state is logged once: ERROR
// when it goes down, INFO when it comes back.
type health struct {
	log  *slog.Logger
	path string
	down atomic.Pointer[error] // the first failing part's error, nil when up

	mu     sync.Mutex
	causes [parts]error
	since  time.Time
}

// set records a part's state: err, or nil once it writes again.
func (h *health) set(part int, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	wasDown := h.down.Load() != nil
	h.causes[part] = err
	var first error
	for _, c := range h.causes {
		if c != nil && first == nil {
			first = c
		}
	}
	switch {
	case first == nil:
		h.down.Store(nil)
		if wasDown {
			h.log.Info("ledger: writes succeed again; metering resumed", "ledger", h.path,
				"down_for", time.Since(h.since).Round(time.Millisecond).String())
		}
	default:
		h.down.Store(&first)
		if !wasDown {
			h.since = time.Now()
			h.log.Error("ledger: cannot write its files; metered requests are answered 503 until it can", "ledger", h.path,
				"error", first.Error())
		}
	}
}

// check returns why the store cannot take charges, or nil.
func (h *health) check() error {
	if p := h.down.Load(); p != nil {
		return fmt.Errorf("ledger %s takes no charges until it can write its files again: %w", h.path, *p)
	}
	return nil
}

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
