package isochrone

// fallbacks counts the contours whose simplified rings failed the check,
// over the engine's scratch spaces (none may be in use); for tests.
func (e *Engine) fallbacks() int {
	if e.pool == nil {
		return 0
	}
	var all []*scratch
	n := 0
	for sc, ok := e.pool.TryGet(); ok; sc, ok = e.pool.TryGet() {
		all = append(all, sc)
		n += sc.fallbacks
	}
	for _, sc := range all {
		e.pool.Put(sc)
	}
	return n
}
