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
	a := h.a
	i := len(a) - 1
	x := a[i]
	for i > 0 {
		p := (i - 1) / 4
		if a[p] <= x {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = x
}

// Pop removes and returns the cheapest entry.
func (h *Heap) Pop() (cost, node uint32) {
	a := h.a
	top := a[0]
	last := len(a) - 1
	x := a[last]
	a = a[:last]
	h.a = a
	i := 0
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		m, mv := c, a[c]
		end := min(c+4, last)
		for j := c + 1; j < end; j++ {
			if a[j] < mv {
				m, mv = j, a[j]
			}
		}
		if x <= mv {
			break
		}
		a[i] = mv
		i = m
	}
	if last > 0 {
		a[i] = x
	}
	return unpack(top)
}
