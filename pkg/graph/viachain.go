package graph

// viaChains resolves a via-way restriction's members to arc sequences of
// g: an arc of a from way arriving where the first via way begins, then a
// simple path along the via ways in the relation's order (each way for one
// or more of its segments), ending where an arc of a to way leaves. A
// relation whose members do not chain up gives none. Several readings are
// possible when a from or to way touches the via ways at more than one
// node; each is returned (at most maxViaChains), so that the restriction
// holds whichever way one enters.
func (t *topology) viaChains(g *Graph, rs *Restriction) []viaChain {
	w := &chainWalk{t: t, g: g, rs: rs, used: map[uint32]bool{}}
	for _, s := range t.waySegs[rs.Via[0]] {
		for _, rev := range [2]bool{false, true} {
			a := g.ArcOf[SegRef(s, rev)]
			if a == NoArc {
				continue
			}
			tail := g.Net.SegFrom[s]
			if rev {
				tail = g.Net.SegTo[s]
			}
			for _, f := range t.arcsAt(g, tail, rs.From, true) {
				if fs, _ := g.ArcSegment(f); !t.isVia(fs, rs) {
					w.from = f
					w.walk(a, 0)
				}
			}
		}
	}
	return w.out
}

// chainWalk is the depth-first search viaChains runs.
type chainWalk struct {
	t     *topology
	g     *Graph
	rs    *Restriction
	from  uint32
	path  []uint32
	used  map[uint32]bool // segments on path
	out   []viaChain
	steps int // arcs tried, bounded by maxViaSteps
}

// walk extends the path with arc a, which lies on via way i.
func (w *chainWalk) walk(a uint32, i int) {
	s, _ := w.g.ArcSegment(a)
	if w.used[s] || len(w.path) >= maxViaArcs || len(w.out) >= maxViaChains || w.steps >= maxViaSteps {
		return
	}
	w.steps++
	w.used[s], w.path = true, append(w.path, a)
	defer func() { w.used[s], w.path = false, w.path[:len(w.path)-1] }()
	head := w.g.ArcHead(a)
	if i == len(w.rs.Via)-1 {
		var to []uint32
		for _, b := range w.t.arcsAt(w.g, head, w.rs.To, false) {
			if bs, _ := w.g.ArcSegment(b); bs != s {
				to = append(to, b)
			}
		}
		if len(to) > 0 {
			w.out = append(w.out, viaChain{from: w.from, via: append([]uint32(nil), w.path...), to: to})
			return
		}
	}
	begin, end := w.g.Fwd.Out(head)
	for b := begin; b < end; b++ {
		bs, _ := w.g.ArcSegment(b)
		switch way := w.t.wayID[w.t.segWay[bs]]; {
		case way == w.rs.Via[i]:
			w.walk(b, i)
		case i+1 < len(w.rs.Via) && way == w.rs.Via[i+1]:
			w.walk(b, i+1)
		}
	}
}

// isVia reports whether segment s belongs to one of rs's via ways.
func (t *topology) isVia(s uint32, rs *Restriction) bool {
	return containsID(rs.Via, t.wayID[t.segWay[s]])
}

// viaWaySegments indexes the segments of the ways that via-way
// restrictions name, which are few.
func viaWaySegments(in Input, segWay []uint32) map[int64][]uint32 {
	out := map[int64][]uint32{}
	for _, rs := range in.Restrictions {
		if rs.ViaWays {
			for _, id := range rs.Via {
				out[id] = nil
			}
		}
	}
	if len(out) == 0 {
		return out
	}
	for s, wi := range segWay {
		if segs, ok := out[in.Ways[wi].ID]; ok {
			out[in.Ways[wi].ID] = append(segs, uint32(s))
		}
	}
	return out
}
