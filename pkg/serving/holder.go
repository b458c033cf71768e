package serving

import (
	"sync/atomic"
)

// Holder serves the current release to concurrent requests and swaps it
// without dropping one: a request Acquires the release, uses it, and calls
// the returned done func; a swapped-out release is closed (unmapped) only
// when its last request is done.
type Holder struct {
	cur atomic.Pointer[handle]
}

type handle struct {
	rel  *Release
	refs atomic.Int64 // the holder's own reference plus one per request
}

// NewHolder serves r.
func NewHolder(r *Release) *Holder {
	h := &Holder{}
	h.cur.Store(newHandle(r))
	return h
}

func newHandle(r *Release) *handle {
	h := &handle{rel: r}
	h.refs.Store(1)
	return h
}

func (h *handle) release() {
	if h.refs.Add(-1) == 0 {
		h.rel.Close()
	}
}

// Acquire returns the current release and the func to call when done with it.
func (h *Holder) Acquire() (*Release, func()) {
	for {
		hd := h.cur.Load()
		if hd.refs.Add(1) > 1 {
			return hd.rel, hd.release
		}
		// The handle was retired and closed between Load and Add: undo and
		// take the new one.
		hd.refs.Add(-1)
	}
}

// Swap makes r current and returns the release it replaced, which closes
// once its in-flight requests finish.
func (h *Holder) Swap(r *Release) *Release {
	old := h.cur.Swap(newHandle(r))
	old.release()
	return old.rel
}
