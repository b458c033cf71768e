package ch

import "github.com/mapsco/maps/pkg/search"

// nodeMarks holds, per hierarchy node, the via search's three marks (see
// the mark* fields): its position in the down cone and in the up cone
// (cone.at), and its index in the route (viaScratch), notSeen until set.
// The three sit side by side, so that a node's marks cost one cache miss,
// not three. On a small hierarchy they are an array indexed by node, set
// back node by node, as fast as a search's memory can be; on a country
// they are a search.Labels, whose memory is that of the nodes marked (two
// cones of a few thousand nodes) rather than arrays of millions per query,
// and which starts over in O(1).
type nodeMarks struct {
	dense  [][marks]int32
	sparse search.Labels[[marks]int32]
}

// The fields of a node's marks.
const (
	markDown  = 0 // position in the down cone (cone.at)
	markUp    = 1 // position in the up cone
	markRoute = 2 // index in the route, or notSeen
	marks     = 3
)

// denseMarks is the largest hierarchy whose marks are an array: 3 MiB, the
// size of a hash table holding the marks of a long route's cones on a
// country (Andorra's hierarchies fit, a country's do not).
const denseMarks = 1 << 18

var unmarked = [marks]int32{notSeen, notSeen, notSeen}

// newNodeMarks returns marks for n nodes: an array when dense.
func newNodeMarks(n int, dense bool) *nodeMarks {
	m := new(nodeMarks)
	if dense {
		m.dense = make([][marks]int32, n)
		for i := range m.dense {
			m.dense[i] = unmarked
		}
		return m
	}
	m.sparse.Fit(n)
	return m
}

func (m *nodeMarks) get(u uint32, f int) int32 {
	if m.dense != nil {
		return m.dense[u][f]
	}
	return m.getSparse(u, f)
}

// getSparse stays out of line so that get inlines into the sweep's loops.
//
//go:noinline
func (m *nodeMarks) getSparse(u uint32, f int) int32 {
	if p := m.sparse.Get(u); p != nil {
		return p[f]
	}
	return notSeen
}

func (m *nodeMarks) set(u uint32, f int, v int32) {
	if m.dense != nil {
		m.dense[u][f] = v
		return
	}
	m.setSparse(u, f, v)
}

//go:noinline
func (m *nodeMarks) setSparse(u uint32, f int, v int32) {
	p, added := m.sparse.Add(u)
	if added {
		*p = unmarked
	}
	p[f] = v
}

// setFirst is set, reporting whether the mark was notSeen before.
func (m *nodeMarks) setFirst(u uint32, f int, v int32) bool {
	if m.dense != nil {
		first := m.dense[u][f] == notSeen
		m.dense[u][f] = v
		return first
	}
	p, added := m.sparse.Add(u)
	if added {
		*p = unmarked
	}
	first := p[f] == notSeen
	p[f] = v
	return first
}

// forget sets every mark back to notSeen, given every node marked since
// the last forget among marked (flagged onCycle or not).
func (m *nodeMarks) forget(marked ...[]uint32) {
	if m.dense == nil {
		m.sparse.Reset()
		return
	}
	for _, nodes := range marked {
		for _, x := range nodes {
			m.dense[x&^onCycle] = unmarked
		}
	}
}
