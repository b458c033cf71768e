package embedded

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

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
