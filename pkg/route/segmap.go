package route

// segMap holds a value per segment, stamped with a generation so that
// starting over costs nothing: the arrays, the size of the network, are
// allocated once and reused across calls.
type segMap[T any] struct {
	gen   uint32
	stamp []uint32
	val   []T
}

// begin forgets every value, sizing the map for numSegments segments.
func (m *segMap[T]) begin(numSegments int) {
	if len(m.stamp) < numSegments {
		m.stamp, m.val, m.gen = make([]uint32, numSegments), make([]T, numSegments), 0
	}
	m.gen++
	if m.gen == 0 { // wrapped: old stamps could look current
		clear(m.stamp)
		m.gen = 1
	}
}

func (m *segMap[T]) get(s uint32) (T, bool) {
	if m.stamp[s] != m.gen {
		var zero T
		return zero, false
	}
	return m.val[s], true
}

func (m *segMap[T]) set(s uint32, v T) { m.stamp[s], m.val[s] = m.gen, v }
