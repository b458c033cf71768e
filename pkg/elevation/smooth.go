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
// pl: out[i] is the mean of h over [d[i]-r, d[i]+r], with r = half the
// window, shrunk near the ends so the window stays centred. Two properties
// follow and the rest of the package relies on them: the end heights are
// kept, and a straight ramp stays exactly the same ramp. It runs in O(n),
// with two indices sweeping the window's ends forward.
func smooth(out []float64, pl *profileLine) []float64 {
	out = out[:0]
	d, h := pl.d, pl.h
	n := len(d)
	if n == 0 {
		return out
	}
	total := d[n-1]
	lo, hi := 0, 0
	for i := 0; i < n; i++ {
		r := min(SmoothWindowM/2, d[i], total-d[i])
		if r <= 0 {
			out = append(out, h[i])
			continue
		}
		lo = pl.segmentAt(d[i]-r, lo)
		hi = pl.segmentAt(d[i]+r, hi)
		out = append(out, (pl.integralTo(d[i]+r, hi)-pl.integralTo(d[i]-r, lo))/(2*r))
	}
	return out
}
