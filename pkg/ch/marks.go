package ch

import "github.com/mapsco/maps/pkg/search"

// nodeMarks is one int32 per hierarchy node, notSeen until set: the
// via search's positions and route indexes (cone.go, via.go). On a small
// hierarchy it is an array indexed by node, set back node by node by its
// user, as fast as a search's memory can be; on a country it is a
// search.Labels, whose memory is that of the nodes marked (a cone of a
// few thousand nodes) rather than three arrays of millions per query, and
// which starts over in O(1).
type nodeMarks struct {
	dense  []int32
	sparse search.Labels[int32]
}

// denseMarks is the largest hierarchy whose marks are an array: 1 MiB,
// Labels' own bound for an array (Andorra's hierarchies fit, a country's
// do not).
const denseMarks = 1 << 18

func newNodeMarks(n int) *nodeMarks {
	m := new(nodeMarks)
	if n <= denseMarks {
		m.dense = make([]int32, n)
		for i := range m.dense {
			m.dense[i] = notSeen
		}
		return m
	}
	m.sparse.Fit(n)
	return m
}

func (m *nodeMarks) get(u uint32) int32 {
	if m.dense != nil {
		return m.dense[u]
	}
	return m.getSparse(u)
}

func (m *nodeMarks) getSparse(u uint32) int32 {
	if p := m.sparse.Get(u); p != nil {
		return *p
	}
	return notSeen
}

func (m *nodeMarks) set(u uint32, v int32) {
	if m.dense != nil {
		m.dense[u] = v
		return
	}
	p, _ := m.sparse.Add(u)
	*p = v
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
			m.dense[x&^onCycle] = notSeen
		}
	}
}
