package elevation

import (
	"context"
	"math"
)

// Void filling: SRTM leaves voids (radar shadow, steep slopes, water) inside
// its tiles. Each void, a 4-connected set of covered posts without a value, is
// filled with the solution of Laplace's equation whose boundary values are the
// valid posts around it: the smoothest surface that meets the terrain at the
// void's rim, the method of the void-filled SRTM products' simplest variant
// and of GDAL's FillNodata smoothing step. Unlike inverse-distance weighting
// it makes no bumps between boundary posts, and by the maximum principle
// every filled post lies between the lowest and the highest rim post (we
// clamp to that range to remove the solver's residual).
//
// The solver starts from an onion-peel guess (each ring inward takes the mean
// of its known neighbours) and relaxes with successive over-relaxation, the
// factor chosen for the void's size, until no post moves by more than
// fillTolerance or fillMaxIter sweeps have run. Posts are visited in a fixed
// order and products are rounded explicitly, so the result is the same on
// every run.

const (
	fillTolerance = 0.01 // metres; the stored unit is 0.25 m
	fillMaxIter   = 5000
)

// fillVoids fills every void of t and returns the number of posts filled and
// left empty (voids with no valid rim, e.g. a wholly void tile).
func fillVoids(ctx context.Context, t *tileGrid) (filled, empty int, err error) {
	seen := make([]bool, len(t.h))
	var comp, ring, next []int
	for i := range t.h {
		if seen[i] || !t.isVoid(i) {
			continue
		}
		comp = t.component(i, seen, comp[:0])
		lo, hi, ok := t.rimRange(comp)
		if !ok {
			empty += len(comp)
			continue
		}
		ring, next = t.onionPeel(comp, ring, next)
		t.relax(comp)
		for _, p := range comp {
			t.h[p] = float32(math.Max(lo, math.Min(hi, float64(t.h[p]))))
		}
		filled += len(comp)
		if err := ctx.Err(); err != nil {
			return filled, empty, err
		}
	}
	return filled, empty, nil
}

func (t *tileGrid) isVoid(i int) bool { return t.covered[i] && math.IsNaN(float64(t.h[i])) }

// neighbours returns the 4-neighbours of post i inside the tile (-1 where the
// tile ends).
func (t *tileGrid) neighbours(i int) [4]int {
	s := t.stride()
	r, c := i/s, i%s
	n := [4]int{-1, -1, -1, -1}
	if r > 0 {
		n[0] = i - s
	}
	if r < int(t.nLat) {
		n[1] = i + s
	}
	if c > 0 {
		n[2] = i - 1
	}
	if c < int(t.nLon) {
		n[3] = i + 1
	}
	return n
}

// component collects the void containing post i, in breadth-first order.
func (t *tileGrid) component(i int, seen []bool, out []int) []int {
	seen[i] = true
	out = append(out, i)
	for k := 0; k < len(out); k++ {
		for _, n := range t.neighbours(out[k]) {
			if n >= 0 && !seen[n] && t.isVoid(n) {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// rimRange returns the lowest and highest valid post 4-adjacent to comp.
func (t *tileGrid) rimRange(comp []int) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range comp {
		for _, n := range t.neighbours(p) {
			if n >= 0 && !math.IsNaN(float64(t.h[n])) {
				v := float64(t.h[n])
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return lo, hi, lo <= hi
}

// meanOfKnown averages the neighbours of p that have a value.
func (t *tileGrid) meanOfKnown(p int) (float64, bool) {
	var sum float64
	n := 0
	for _, q := range t.neighbours(p) {
		if q >= 0 && !math.IsNaN(float64(t.h[q])) {
			sum += float64(t.h[q])
			n++
		}
	}
	return sum / float64(n), n > 0
}

// onionPeel gives every post of comp a first guess, ring by ring from the rim
// inwards. A ring's values are computed before any is written, so the result
// does not depend on the order within a ring.
func (t *tileGrid) onionPeel(comp, ring, next []int) ([]int, []int) {
	vals := make([]float32, 0, 64)
	ring = ring[:0]
	for _, p := range comp {
		if _, ok := t.meanOfKnown(p); ok {
			ring = append(ring, p)
		}
	}
	queued := make(map[int]bool, len(comp))
	for _, p := range ring {
		queued[p] = true
	}
	for len(ring) > 0 {
		vals = vals[:0]
		for _, p := range ring {
			m, _ := t.meanOfKnown(p)
			vals = append(vals, float32(m))
		}
		next = next[:0]
		for k, p := range ring {
			t.h[p] = vals[k]
			for _, n := range t.neighbours(p) {
				if n >= 0 && !queued[n] && t.isVoid(n) {
					queued[n] = true
					next = append(next, n)
				}
			}
		}
		ring, next = next, ring
	}
	return ring, next
}

// relax runs successive over-relaxation on comp's posts (which all have a
// value now; rim posts stay fixed).
func (t *tileGrid) relax(comp []int) {
	s := t.stride()
	minR, maxR, minC, maxC := math.MaxInt, 0, math.MaxInt, 0
	for _, p := range comp {
		minR, maxR = min(minR, p/s), max(maxR, p/s)
		minC, maxC = min(minC, p%s), max(maxC, p%s)
	}
	size := float64(max(maxR-minR, maxC-minC) + 2)
	omega := 2 / (1 + math.Sin(math.Pi/size)) // optimal for a square of that size
	for it := 0; it < fillMaxIter; it++ {
		worst := 0.0
		for _, p := range comp {
			m, _ := t.meanOfKnown(p)
			old := float64(t.h[p])
			step := float64(omega * (m - old)) // explicit rounding: no FMA, same bits everywhere
			t.h[p] = float32(old + step)
			worst = math.Max(worst, math.Abs(step))
		}
		if worst < fillTolerance {
			return
		}
	}
}
