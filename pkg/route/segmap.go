package route

import "github.com/mapsco/maps/pkg/search"

// segMap holds a value per segment: in search.Labels, so that starting
// over costs nothing and the memory is that of the segments used (an
// array on a small network, see Labels.Fit).
type segMap[T any] struct {
	labels search.Labels[T] // sized to the segments used, not to the network (see search.Labels)
}

// begin forgets every value, for a network of numSegments segments.
func (m *segMap[T]) begin(numSegments int) { m.labels.Fit(numSegments) }

func (m *segMap[T]) get(s uint32) (T, bool) {
	if v := m.labels.Get(s); v != nil {
		return *v, true
	}
	var zero T
	return zero, false
}

func (m *segMap[T]) set(s uint32, v T) {
	p, _ := m.labels.Add(s)
	*p = v
}
