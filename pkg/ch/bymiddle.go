package ch

// middleIndex lists a hierarchy's shortcuts by the node they bypass, for
// road operations' taint (taint.go): a shortcut over m is tainted when one
// of its halves, both stored at m, is. Made on the first taint a
// hierarchy is asked for and kept (about 12 bytes a shortcut), so that a
// release serving no operations never makes it.
type middleIndex struct {
	first     []uint32 // per node + 1: where its shortcuts begin in list
	shortcuts []shortcut
}

// shortcut is an entry of Up (up) or Dn at index i, stored at owner, from
// from to to, with its stored middle and weight.
type shortcut struct {
	up       bool
	i, owner uint32
	from, to uint32
	middle   uint32
	weight   uint32
}

func (ix *middleIndex) over(m uint32) []shortcut {
	return ix.shortcuts[ix.first[m]:ix.first[m+1]]
}

// shortcutsByMiddle returns h's middle index, making it on first use.
func (h *Hierarchy) shortcutsByMiddle() *middleIndex {
	k := h.taints
	k.middlesMu.Lock()
	defer k.middlesMu.Unlock()
	if k.middles == nil {
		k.middles = buildMiddleIndex(h)
	}
	return k.middles
}

// dropMiddles lets go of h's middle index (made again if a taint asks):
// a customized hierarchy needs one taint, its own overlay's, and the
// index would be most of the memory it holds beside its edges.
func (h *Hierarchy) dropMiddles() {
	h.taints.middlesMu.Lock()
	defer h.taints.middlesMu.Unlock()
	h.taints.middles = nil
}

func buildMiddleIndex(h *Hierarchy) *middleIndex {
	n := h.NumNodes()
	ix := &middleIndex{first: make([]uint32, n+2)}
	each := func(fn func(s shortcut, middle uint32)) {
		for u := range uint32(n) {
			for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
				if e := at(h.Up, i); e.middle != NoMiddle {
					h.eachMiddle(e.middle, func(m uint32) {
						fn(shortcut{up: true, i: i, owner: u, from: u, to: e.other, middle: e.middle, weight: e.weight}, m)
					})
				}
			}
			for i := h.DnFirst[u]; i < h.DnFirst[u+1]; i++ {
				if e := at(h.Dn, i); e.middle != NoMiddle {
					h.eachMiddle(e.middle, func(m uint32) {
						fn(shortcut{i: i, owner: u, from: e.other, to: u, middle: e.middle, weight: e.weight}, m)
					})
				}
			}
		}
	}
	each(func(_ shortcut, m uint32) { ix.first[m+2]++ })
	for v := 2; v < len(ix.first); v++ {
		ix.first[v] += ix.first[v-1]
	}
	ix.shortcuts = make([]shortcut, ix.first[n+1])
	each(func(s shortcut, m uint32) {
		ix.shortcuts[ix.first[m+1]] = s
		ix.first[m+1]++
	})
	return ix
}

// eachMiddle calls fn with each node a shortcut with the given middle may
// bypass: its middle, or each of a variable shortcut's candidates'.
func (h *Hierarchy) eachMiddle(middle uint32, fn func(m uint32)) {
	if !isVary(middle) {
		fn(middle)
		return
	}
	k := middle &^ varyBit
	for c := h.VaryFirst[k]; c < h.VaryFirst[k+1]; c++ {
		fn(h.Vary[3*c])
	}
}
