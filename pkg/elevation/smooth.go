package elevation

// SmoothWindowM is the width of the moving average applied to a sampled
// height profile. A DSM puts trees and buildings into the surface: a road
// along a forest edge or through a village reads metres too high for a
// stretch and then drops back, and summing those bumps inflates ascent by tens
// of percent. Averaging over 150 m flattens bumps of one or two SRTM posts
// while keeping the shape of real hills, which are longer than that. (For
// comparison, GraphHopper's RoadElevationInterpolator averages each point with
// the geometry points up to 180 m from it.)
const SmoothWindowM = 150

// smooth writes into out the moving average of the piecewise-linear profile
// (d, h): out[i] is the mean of h over [d[i]-r, d[i]+r], with r = half the
// window, shrunk near the ends so the window stays centred. Two properties
// follow and the rest of the package relies on them: the end heights are
// kept, and a straight ramp stays exactly the same ramp. It runs in O(n),
// with two cursors sweeping the window's ends forward.
func smooth(out, d, h []float64) []float64 {
	out = out[:0]
	n := len(d)
	if n == 0 {
		return out
	}
	total := d[n-1]
	lo, hi := newCursor(d, h), newCursor(d, h)
	for i := 0; i < n; i++ {
		r := min(SmoothWindowM/2, d[i], total-d[i])
		if r <= 0 {
			out = append(out, h[i])
			continue
		}
		a := lo.integralTo(d[i] - r)
		b := hi.integralTo(d[i] + r)
		out = append(out, (b-a)/(2*r))
	}
	return out
}

// cursor integrates a piecewise-linear profile from d[0] up to increasing
// positions, remembering where it is so a sweep costs O(n) in all.
type cursor struct {
	d, h []float64
	k    int     // segment [d[k], d[k+1]] holding the last position
	acc  float64 // integral from d[0] to d[k]
}

func newCursor(d, h []float64) cursor { return cursor{d: d, h: h} }

// integralTo returns the integral of h from d[0] to x; x must not decrease
// between calls.
func (c *cursor) integralTo(x float64) float64 {
	for c.k+1 < len(c.d)-1 && c.d[c.k+1] <= x {
		c.acc += (c.d[c.k+1] - c.d[c.k]) * (c.h[c.k] + c.h[c.k+1]) / 2
		c.k++
	}
	if c.k+1 >= len(c.d) {
		return c.acc
	}
	x0, x1 := c.d[c.k], c.d[c.k+1]
	hx := c.h[c.k]
	if x1 > x0 {
		hx += (c.h[c.k+1] - c.h[c.k]) * (x - x0) / (x1 - x0)
	}
	return c.acc + (x-x0)*(c.h[c.k]+hx)/2
}
