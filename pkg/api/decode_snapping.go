package api

import "math"

// This file decodes the snapping controls: radiuses and bearings, one per point (null for the default) on
// directions and matrix, one for the origin on isochrone. How many there must be is checked by the request's
// decoder once it has read the points, whatever the order of the members.

// radiusList reads an array of radiuses into dst (sized for max items), null items as 0 (the default); n is
// how many items the array held.
func (d *decoder) radiusList(p pointer, dst []float64, max int) (list []float64, n int) {
	if !d.enterArray(p, "an array of radiuses in metres (or null for the default), one per point") {
		return nil, -1
	}
	for first := true; d.s.next(']', first); first = false {
		if n < max {
			dst = append(dst, d.radiusItem(p.at(n)))
		} else {
			d.s.skipValue()
		}
		n++
	}
	return dst, n
}

// radiusItem reads one item of a radius list: a radius or null.
func (d *decoder) radiusItem(p pointer) float64 {
	if d.s.kind() == kindNull {
		d.s.skipValue()
		return 0
	}
	return d.radius(p)
}

// radius reads a radius in metres: more than 0, at most MaxRadius.
func (d *decoder) radius(p pointer) float64 {
	v, ok := d.number(p, "radius in metres")
	if !ok {
		return 0
	}
	if !(v > 0) || v > MaxRadius {
		d.errs.addf(p, "must be greater than 0 and at most %d metres, got %s", MaxRadius, formatNumber(v))
		return 0
	}
	return v
}

// bearingList reads an array of bearings into dst (sized for max items), null items as absent ones.
func (d *decoder) bearingList(p pointer, dst []Bearing, max int) (list []Bearing, n int) {
	if !d.enterArray(p, "an array of bearings [degrees, tolerance] (or null for none), one per point") {
		return nil, -1
	}
	for first := true; d.s.next(']', first); first = false {
		if n < max {
			var b Bearing
			if d.s.kind() == kindNull {
				d.s.skipValue()
			} else {
				b = d.bearing(p.at(n))
			}
			dst = append(dst, b)
		} else {
			d.s.skipValue()
		}
		n++
	}
	return dst, n
}

// bearing reads [degrees, tolerance]: degrees clockwise from north in 0..360, tolerance in 0..180.
func (d *decoder) bearing(p pointer) Bearing {
	const want = "an array of 2 numbers [degrees clockwise from north (0 to 360), tolerance in degrees (0 to 180)]"
	var v [2]float64
	if k := d.s.kind(); k != kindArray {
		d.errs.wrongType(p, want, k)
		d.s.skipValue()
		return Bearing{}
	}
	d.s.enter()
	n, ok := 0, true
	for first := true; d.s.next(']', first); first = false {
		if n < len(v) {
			var good bool
			v[n], good = d.bearingPart(p, n)
			ok = ok && good
		} else {
			d.s.skipValue()
		}
		n++
	}
	if n != len(v) {
		if !d.s.failed {
			d.errs.addf(p, "must be %s, got %d items", want, n)
		}
		return Bearing{}
	}
	if !ok {
		return Bearing{}
	}
	return Bearing{Degrees: v[0], Tolerance: v[1], Given: true}
}

// bearingPart reads element n of a bearing and checks its range.
func (d *decoder) bearingPart(p pointer, n int) (float64, bool) {
	index, what, hi := "0", "bearing in degrees", MaxBearing
	if n == 1 {
		index, what, hi = "1", "tolerance in degrees", MaxBearingTolerance
	}
	v, ok := d.number(p.child(index), what)
	if !ok {
		return 0, false
	}
	if v < 0 || v > hi || math.IsNaN(v) {
		d.errs.addf(p.child(index), "%s must be from 0 to %g, got %s", what, hi, formatNumber(v))
		return 0, false
	}
	return v, true
}

// enterArray enters an array, or reports and skips another value (null included: omit the member instead).
func (d *decoder) enterArray(p pointer, want string) bool {
	if k := d.s.kind(); k != kindArray {
		d.wrongOrNull(p, want, k)
		d.s.skipValue()
		return false
	}
	d.s.enter()
	return true
}

// perPoint checks that a list of n items (-1: absent or invalid) has one per point.
func (d *decoder) perPoint(p pointer, n, points int, what string) {
	if n >= 0 && points > 0 && n != points && !d.s.failed {
		d.errs.addf(p, "must hold one %s per point (%d), got %d", what, points, n)
	}
}
