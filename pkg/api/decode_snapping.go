package api

import (
	"math"

	"github.com/mapsco/maps/pkg/jsonscan"
)

// This file decodes the snapping controls: radiuses and bearings, one per point (null for the default) on
// directions and matrix, one for the origin on isochrone. How many there must be is checked by the request's
// decoder once it has read the points, whatever the order of the members.

// radiusList reads an array of radiuses into dst (sized for max items), null items as 0 (the default); n is
// how many items the array held.
func (d *decoder) radiusList(p jsonscan.Pointer, dst []float64, max int) (list []float64, n int) {
	if !d.enterArray(p, "an array of radiuses in metres (or null for the default), one per point") {
		return nil, -1
	}
	for first := true; d.s.Next(']', first); first = false {
		if n < max {
			dst = append(dst, d.radiusItem(p.Index(n)))
		} else {
			d.s.Skip()
		}
		n++
	}
	return dst, n
}

// radiusItem reads one item of a radius list: a radius or null.
func (d *decoder) radiusItem(p jsonscan.Pointer) float64 {
	if d.s.Kind() == jsonscan.Null {
		d.s.Skip()
		return 0
	}
	return d.radius(p)
}

// radius reads a radius in metres: more than 0, at most MaxRadius.
func (d *decoder) radius(p jsonscan.Pointer) float64 {
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
func (d *decoder) bearingList(p jsonscan.Pointer, dst []Bearing, max int) (list []Bearing, n int) {
	if !d.enterArray(p, "an array of bearings [degrees, tolerance] (or null for none), one per point") {
		return nil, -1
	}
	for first := true; d.s.Next(']', first); first = false {
		if n < max {
			var b Bearing
			if d.s.Kind() == jsonscan.Null {
				d.s.Skip()
			} else {
				b = d.bearing(p.Index(n))
			}
			dst = append(dst, b)
		} else {
			d.s.Skip()
		}
		n++
	}
	return dst, n
}

// bearing reads [degrees, tolerance]: degrees clockwise from north in 0..360, tolerance in 0..180.
func (d *decoder) bearing(p jsonscan.Pointer) Bearing {
	const want = "an array of 2 numbers [degrees clockwise from north (0 to 360), tolerance in degrees (0 to 180)]"
	var v [2]float64
	if k := d.s.Kind(); k != jsonscan.Array {
		d.errs.wrongType(p, want, k)
		d.s.Skip()
		return Bearing{}
	}
	d.s.Enter()
	n, ok := 0, true
	for first := true; d.s.Next(']', first); first = false {
		if n < len(v) {
			var good bool
			v[n], good = d.bearingPart(p, n)
			ok = ok && good
		} else {
			d.s.Skip()
		}
		n++
	}
	if n != len(v) {
		if !d.s.Failed() {
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
func (d *decoder) bearingPart(p jsonscan.Pointer, n int) (float64, bool) {
	what, hi := "bearing in degrees", MaxBearing
	if n == 1 {
		what, hi = "tolerance in degrees", MaxBearingTolerance
	}
	v, ok := d.number(p.Index(n), what)
	if !ok {
		return 0, false
	}
	if v < 0 || v > hi || math.IsNaN(v) {
		d.errs.addf(p.Index(n), "%s must be from 0 to %g, got %s", what, hi, formatNumber(v))
		return 0, false
	}
	return v, true
}

// enterArray enters an array, or reports and skips another value (null included: omit the member instead).
func (d *decoder) enterArray(p jsonscan.Pointer, want string) bool {
	if k := d.s.Kind(); k != jsonscan.Array {
		d.wrongOrNull(p, want, k)
		d.s.Skip()
		return false
	}
	d.s.Enter()
	return true
}

// perPoint checks that a list of n items (-1: absent or invalid) has one per point.
func (d *decoder) perPoint(p jsonscan.Pointer, n, points int, what string) {
	if n >= 0 && points > 0 && n != points && !d.s.Failed() {
		d.errs.addf(p, "must hold one %s per point (%d), got %d", what, points, n)
	}
}
