package ledgertest

import (
	"sync"
	"time"
)

// FakeClock is a settable clock for cap rollover and hold expiry tests.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewFakeClock returns a clock that reads t until Set.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{now: t} }

// Now reads the clock; pass it as Options.Now.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *FakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
