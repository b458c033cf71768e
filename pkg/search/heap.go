package search

// Heap is a binary min-heap of (cost, node) packed into one uint64 with the
// cost in the high half, so a comparison is one integer compare. Entries are
// never decreased in place: a better cost pushes a new entry and the stale
// one is skipped when popped ("lazy deletion"), which is faster than
// tracking positions for the few duplicates road graphs produce.
// The zero Heap is empty and ready.
type Heap struct{ a []uint64 }

func pack(cost, node uint32) uint64       { return uint64(cost)<<32 | uint64(node) }
func unpack(x uint64) (cost, node uint32) { return uint32(x >> 32), uint32(x) }

// Reset empties the heap, keeping its memory.
func (h *Heap) Reset() { h.a = h.a[:0] }

// Len returns the number of entries, stale ones included.
func (h *Heap) Len() int { return len(h.a) }

// MinCost returns the smallest cost queued, or Unreached when empty.
func (h *Heap) MinCost() uint32 {
	if len(h.a) == 0 {
		return Unreached
	}
	c, _ := unpack(h.a[0])
	return c
}

// Push queues node at cost.
func (h *Heap) Push(cost, node uint32) {
	h.a = append(h.a, pack(cost, node))
	i := len(h.a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.a[p] <= h.a[i] {
			break
		}
		h.a[p], h.a[i] = h.a[i], h.a[p]
		i = p
	}
}

// Pop removes and returns the cheapest entry.
func (h *Heap) Pop() (cost, node uint32) {
	x := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && h.a[r] < h.a[l] {
			m = r
		}
		if h.a[i] <= h.a[m] {
			break
		}
		h.a[i], h.a[m] = h.a[m], h.a[i]
		i = m
	}
	return unpack(x)
}
