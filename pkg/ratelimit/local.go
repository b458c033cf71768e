package ratelimit

import (
	"context"
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Local is the in-process limiter: one replica, no network. Keys hash to
// one of localShards shards; each shard maps keys to a cell holding the
// key's TAT (ns since the limiter started, on the monotonic clock). The
// common path takes a shard read lock for the map lookup and updates the
// cell with compare-and-swap, and allocates nothing; only a key's first
// request takes the shard's write lock. Cells idle for over a minute are
// swept when their shard next gains a key.
type Local struct {
	opts   Options
	start  time.Time
	seed   maphash.Seed
	shards [localShards]localShard
}

const (
	localShards = 64
	// sweepIdle is how long after draining a cell may be dropped; the
	// delay keeps a request racing the sweep from losing its update.
	sweepIdle = int64(time.Minute)
)

type localShard struct {
	mu        sync.RWMutex
	cells     map[string]*atomic.Int64
	lastSweep int64
	_         [40]byte // keep shards on separate cache lines
}

// NewLocal returns an in-process limiter.
func NewLocal(opts Options) *Local {
	opts = opts.withDefaults()
	l := &Local{opts: opts, start: opts.Now(), seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].cells = make(map[string]*atomic.Int64)
	}
	return l
}

// Allow implements Limiter.
func (l *Local) Allow(ctx context.Context, key string, limit int) (Decision, error) {
	r, err := newRate(limit, time.Nanosecond)
	if err != nil {
		return Decision{}, err
	}
	wall := l.opts.Now()
	now := int64(wall.Sub(l.start))
	cell := l.cell(key, now)
	for {
		old := cell.Load()
		tat, v := r.decide(old, now)
		if !v.allowed || cell.CompareAndSwap(old, tat) {
			return v.decision(limit, wall, time.Nanosecond), nil
		}
	}
}

// cell returns the key's cell, creating it on first use.
func (l *Local) cell(key string, now int64) *atomic.Int64 {
	s := &l.shards[maphash.String(l.seed, key)%localShards]
	s.mu.RLock()
	c := s.cells[key]
	s.mu.RUnlock()
	if c != nil {
		return c
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c = s.cells[key]; c != nil {
		return c
	}
	if now-s.lastSweep > sweepIdle {
		s.sweep(now)
	}
	c = new(atomic.Int64)
	c.Store(now) // a drained cell
	s.cells[strings.Clone(key)] = c
	return c
}

// sweep drops cells drained for over sweepIdle: a missing cell and a
// drained one decide alike. Call with s.mu held.
func (s *localShard) sweep(now int64) {
	for k, c := range s.cells {
		if c.Load() < now-sweepIdle {
			delete(s.cells, k)
		}
	}
	s.lastSweep = now
}

// Close implements Limiter; the in-process limiter holds nothing.
func (l *Local) Close() error { return nil }
