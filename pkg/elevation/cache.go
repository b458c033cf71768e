package elevation

import (
	"sync"
	"sync/atomic"
)

// blockCache keeps recently used decompressed blocks. It is split into shards
// (block id modulo the shard count) so that goroutines reading different
// blocks rarely share a lock, and each shard evicts with CLOCK: a hit only sets
// a reference bit under the shard's read lock, so hits run in parallel and
// allocate nothing. A miss decodes outside any lock into a pooled buffer and
// swaps it with the victim's, so the number of resident buffers never exceeds
// the capacity (plus the few in flight in the pool).
type blockCache struct {
	shards []cacheShard
	pool   sync.Pool // *blockBuf
}

type cacheShard struct {
	mu    sync.RWMutex
	where map[int32]int32 // block id → slot
	slots []cacheSlot
	hand  int
	hits  atomic.Uint64
	miss  atomic.Uint64
	_     [64]byte // keep neighbouring shards' counters off one cache line
}

type cacheSlot struct {
	block int32 // -1 when empty
	ref   atomic.Uint32
	cols  int
	buf   *blockBuf
}

// blockBuf holds one decoded block and the scratch space to decode it.
type blockBuf struct {
	posts   []uint16
	scratch []byte
}

const maxBlockPosts = (BlockCells + 1) * (BlockCells + 1)

func (b *blockBuf) init() {
	b.posts = make([]uint16, maxBlockPosts)
	b.scratch = make([]byte, 2*maxBlockPosts)
}

const maxShards = 16

func newBlockCache(capacity int) *blockCache {
	n := min(maxShards, capacity)
	c := &blockCache{shards: make([]cacheShard, n)}
	c.pool.New = func() any { b := &blockBuf{}; b.init(); return b }
	for i := range c.shards {
		size := capacity / n
		if i < capacity%n {
			size++
		}
		s := &c.shards[i]
		s.where = make(map[int32]int32, size)
		s.slots = make([]cacheSlot, size)
		for j := range s.slots {
			s.slots[j].block = -1
		}
	}
	return c
}

// cell returns the four posts of the cell whose north-west post is (r, c)
// inside block b of rows×cols posts, in the order NW, NE, SW, SE. load
// supplies the compressed bytes on a miss.
func (c *blockCache) cell(d *DEM, b int32, rows, cols, r, col int) (p [4]uint16, err error) {
	s := &c.shards[int(b)%len(c.shards)]
	k := r*cols + col
	s.mu.RLock()
	if i, ok := s.where[b]; ok {
		sl := &s.slots[i]
		if sl.ref.Load() == 0 {
			sl.ref.Store(1)
		}
		q := sl.buf.posts
		p = [4]uint16{q[k], q[k+1], q[k+cols], q[k+cols+1]}
		s.mu.RUnlock()
		s.hits.Add(1)
		return p, nil
	}
	s.mu.RUnlock()
	s.miss.Add(1)

	buf := c.pool.Get().(*blockBuf)
	src, err := d.blockBytes(b)
	if err == nil {
		err = decodeBlock(buf.posts, src, buf.scratch, rows, cols)
	}
	if err != nil {
		c.pool.Put(buf)
		return p, err
	}
	q := buf.posts
	p = [4]uint16{q[k], q[k+1], q[k+cols], q[k+cols+1]}
	if old := s.insert(b, cols, buf); old != nil {
		c.pool.Put(old)
	}
	return p, nil
}

// insert stores buf as block b and returns the buffer that is no longer
// referenced (the victim's, or buf itself if another goroutine won the race),
// or nil when b went into an empty slot.
func (s *cacheShard) insert(b int32, cols int, buf *blockBuf) *blockBuf {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.where[b]; ok {
		return buf
	}
	for {
		sl := &s.slots[s.hand]
		i := s.hand
		s.hand = (s.hand + 1) % len(s.slots)
		if sl.block >= 0 && sl.ref.Load() != 0 {
			sl.ref.Store(0) // second chance
			continue
		}
		if sl.block >= 0 {
			delete(s.where, sl.block)
		}
		old := sl.buf
		sl.block, sl.cols, sl.buf = b, cols, buf
		sl.ref.Store(1)
		s.where[b] = int32(i)
		return old
	}
}

// CacheStats reports the block cache's activity since Open.
type CacheStats struct {
	Hits, Misses uint64
	Resident     int // decoded blocks held now
	Capacity     int
}

// CacheStats returns the cache counters; it is cheap and safe to call
// concurrently with At.
func (d *DEM) CacheStats() CacheStats {
	var st CacheStats
	for i := range d.cache.shards {
		s := &d.cache.shards[i]
		st.Hits += s.hits.Load()
		st.Misses += s.miss.Load()
		s.mu.RLock()
		st.Resident += len(s.where)
		s.mu.RUnlock()
		st.Capacity += len(s.slots)
	}
	return st
}
