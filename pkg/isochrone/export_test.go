package isochrone

// fallbacks counts the contours whose simplified rings failed the check,
// over the scratch spaces now in the pool; for tests.
func (e *Engine) fallbacks() int {
	sc, _ := e.pool.Get().(*scratch)
	if sc == nil {
		return 0
	}
	defer e.pool.Put(sc)
	return sc.fallbacks
}
