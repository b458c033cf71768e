package ledger

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// authCache remembers successful Authenticate answers for a short TTL so
// that the backend is not asked on every request. Only positive answers are
// kept, so the cache holds at most one entry per valid key in use; expired
// entries are overwritten on the next lookup of the same key, and the whole
// cache is dropped by purge (after any admin change made through this
// Store). It is sharded to keep lock contention low.
type authCache struct {
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
	entries map[keyHash]authEntry
}

type authEntry struct {
	info    KeyInfo
	expires time.Time
}

func newAuthCache(ttl time.Duration, now func() time.Time) *authCache {
	c := &authCache{ttl: ttl, now: now, seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].entries = make(map[keyHash]authEntry)
	}
	return c
}

func (c *authCache) shard(h keyHash) *authShard {
	return &c.shards[maphash.Bytes(c.seed, h[:8])%authShards]
}

// get returns a cached, unexpired answer.
func (c *authCache) get(h keyHash) (KeyInfo, bool) {
	if c.ttl <= 0 {
		return KeyInfo{}, false
	}
	s := c.shard(h)
	s.mu.RLock()
	e, ok := s.entries[h]
	s.mu.RUnlock()
	if !ok || !c.now().Before(e.expires) {
		return KeyInfo{}, false
	}
	return e.info, true
}

// generation returns the token to pass to put for an answer about to be
// read from the backend.
func (c *authCache) generation() uint64 { return c.gen.Load() }

// put caches an answer read from the backend after generation() returned
// gen, until the TTL is up or notAfter (if not zero: the key's scheduled
// revocation), whichever comes first.
func (c *authCache) put(h keyHash, info KeyInfo, gen uint64, notAfter time.Time) {
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

// purge forgets everything, so that a revocation or suspension made through
// this Store applies to the very next request.
func (c *authCache) purge() {
	c.gen.Add(1)
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		clear(s.entries)
		s.mu.Unlock()
	}
}
