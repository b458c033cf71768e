package shared

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// AuthCache remembers successful Authenticate answers for a short TTL so
// that the backend is not asked on every request. Only positive answers are
// kept, so the cache holds at most one entry per valid key in use; expired
// entries are overwritten on the next lookup of the same key, and the whole
// cache is dropped by Purge (after any admin change made through this
// Store). It is sharded to keep lock contention low.
type AuthCache struct {
	ttl  time.Duration
	now  func() time.Time
	seed maphash.Seed
	// gen counts purges: an answer read from the backend before a purge
	// must not be cached after it.
	gen    atomic.Uint64
	shards [authShards]authShard
}

const authShards = 32

type authShard struct {
	mu      sync.RWMutex
	entries map[KeyHash]authEntry
}

type authEntry struct {
	info    ledger.KeyInfo
	expires time.Time
}

func NewAuthCache(ttl time.Duration, now func() time.Time) *AuthCache {
	c := &AuthCache{ttl: ttl, now: now, seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].entries = make(map[KeyHash]authEntry)
	}
	return c
}

func (c *AuthCache) shard(h KeyHash) *authShard {
	return &c.shards[maphash.Bytes(c.seed, h[:8])%authShards]
}

// Get returns a cached, unexpired answer.
func (c *AuthCache) Get(h KeyHash) (ledger.KeyInfo, bool) {
	if c.ttl <= 0 {
		return ledger.KeyInfo{}, false
	}
	s := c.shard(h)
	s.mu.RLock()
	e, ok := s.entries[h]
	s.mu.RUnlock()
	if !ok || !c.now().Before(e.expires) {
		return ledger.KeyInfo{}, false
	}
	return e.info, true
}

// Generation returns the token to pass to Put for an answer about to be
// read from the backend.
func (c *AuthCache) Generation() uint64 { return c.gen.Load() }

// Put caches an answer read from the backend after Generation() returned
// gen, until the TTL is up or notAfter (if not zero: the key's scheduled
// revocation), whichever comes first.
func (c *AuthCache) Put(h KeyHash, info ledger.KeyInfo, gen uint64, notAfter time.Time) {
	if c.ttl <= 0 {
		return
	}
	expires := c.now().Add(c.ttl)
	if !notAfter.IsZero() && notAfter.Before(expires) {
		expires = notAfter
	}
	s := c.shard(h)
	s.mu.Lock()
	if c.gen.Load() == gen {
		s.entries[h] = authEntry{info: info, expires: expires}
	}
	s.mu.Unlock()
}

// Purge forgets everything, so that a revocation or suspension made through
// this Store applies to the very next request.
func (c *AuthCache) Purge() {
	c.gen.Add(1)
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		clear(s.entries)
		s.mu.Unlock()
	}
}
