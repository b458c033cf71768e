package elevation

// profileLine is a piecewise-linear profile: heights h at distances d,
// with each segment's slope and the area under the profile up to each
// sample worked out once (set), so that the smoothing's and the grade's
// sweeps, two each, read heights and areas between samples with no
// division.
type profileLine struct {
	d, h  []float64
	slope []float64 // slope[k] of segment [d[k], d[k+1]]; 0 when it has no length
	area  []float64 // area[k] = integral of h from d[0] to d[k]
}

// set makes pl the profile (d, h), reusing its buffers.
func (pl *profileLine) set(d, h []float64) {
	pl.d, pl.h = d, h
	pl.slope, pl.area = pl.slope[:0], pl.area[:0]
	if len(d) == 0 {
		return
	}
	acc := 0.0
	pl.area = append(pl.area, 0)
	for k := 0; k+1 < len(d); k++ {
		m := 0.0
		if w := d[k+1] - d[k]; w > 0 {
			m = (h[k+1] - h[k]) / w
		}
		pl.slope = append(pl.slope, m)
		acc += (d[k+1] - d[k]) * (h[k] + h[k+1]) / 2
		pl.area = append(pl.area, acc)
	}
}

// segmentAt returns the index k, searching forward from k, of the segment
// [d[k], d[k+1]] holding x (the last segment for x beyond it).
func (pl *profileLine) segmentAt(x float64, k int) int {
	d := pl.d
	last := len(d) - 2 // the last segment
	// Callers step x by one sample's spacing, so k usually moves by 0, 1 or
	// 2: two conditional increments the compiler turns into flag
	// arithmetic, then a loop that rarely runs, rather than a loop whose
	// trip count a new profile mispredicts at every sample.
	if k < last {
		k += b2i(d[k+1] <= x)
	}
	if k < last {
		k += b2i(d[k+1] <= x)
	}
	for k < last && d[k+1] <= x {
		k++
	}
	return k
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// at returns the height at distance x inside segment k.
func (pl *profileLine) at(x float64, k int) float64 {
	if k >= len(pl.slope) {
		return pl.h[k]
	}
	return pl.h[k] + pl.slope[k]*(x-pl.d[k])
}

// integralTo returns the integral of h from d[0] to x inside segment k.
func (pl *profileLine) integralTo(x float64, k int) float64 {
	return pl.area[k] + (x-pl.d[k])*(pl.h[k]+pl.at(x, k))/2
}
