package api

import "github.com/mapsco/maps/pkg/jsonscan"

// This file decodes the contours of an isochrone request: objects holding exactly one budget, a time or a
// distance, each within the limits of spec section 8.

// contours reads the array of contours into dst, which the caller sizes to hold MaxContours items.
func (d *decoder) contours(dst []Contour) []Contour {
	p := memberPointer("contours")
	if k := d.s.Kind(); k != jsonscan.Array {
		d.errs.wrongType(p, "an array of contours", k)
		d.s.Skip()
		return nil
	}
	d.s.Enter()
	n := 0
	for first := true; d.s.Next(']', first); first = false {
		if n < MaxContours {
			if c, ok := d.contour(p.Index(n)); ok {
				dst = append(dst, c)
			}
		} else {
			d.s.Skip()
		}
		n++
	}
	if !d.s.Failed() && (n < MinContours || n > MaxContours) {
		d.errs.addf(p, "must hold %d to %d contours, got %d", MinContours, MaxContours, n)
	}
	return dst
}

// contour reads one contour object; a member other than the two budgets is reported like anywhere else.
func (d *decoder) contour(p jsonscan.Pointer) (Contour, bool) {
	if k := d.s.Kind(); k != jsonscan.Object {
		d.errs.wrongType(p, "an object with time_minutes or distance_km", k)
		d.s.Skip()
		return Contour{}, false
	}
	d.s.Enter()
	var c Contour
	var seen, present memberSet
	ok, reported := true, false
	for first := true; d.s.Next('}', first); first = false {
		m := d.memberName()
		if m != memberTimeMinutes && m != memberDistanceKm {
			d.unknownMember(unknownBelow(p, d.name), "a contour", contourMembers)
			ok = false
			continue
		}
		if seen.has(m) {
			d.errs.addf(p.Member(m.String()), "appears more than once")
			d.s.Skip()
			ok = false
			continue
		}
		seen.add(m)
		v, given, valid := d.budget(p.Member(m.String()), m)
		if given {
			present.add(m)
		}
		reported = reported || (!given && !valid)
		ok = ok && valid
		if m == memberTimeMinutes {
			c.Minutes = v
		} else {
			c.Kilometers = v
		}
	}
	if d.s.Failed() {
		return c, false
	}
	// A null budget, already reported at its own pointer, is not reported again as a missing one.
	if present.has(memberTimeMinutes) == present.has(memberDistanceKm) && !reported {
		d.errs.addf(p, "must have exactly one of time_minutes (%g to %g) or distance_km (%g to %g)",
			MinContourMinutes, MaxContourMinutes, MinContourKilometers, MaxContourKilometers)
		return c, false
	}
	return c, ok
}

// budget reads a time_minutes or distance_km value. A null is reported here, at the member's own pointer, as
// neither given nor valid.
func (d *decoder) budget(p jsonscan.Pointer, m member) (v float64, given, valid bool) {
	lo, hi, unit := MinContourMinutes, MaxContourMinutes, "minutes"
	if m == memberDistanceKm {
		lo, hi, unit = MinContourKilometers, MaxContourKilometers, "km"
	}
	if d.s.Kind() == jsonscan.Null {
		d.s.Skip()
		d.errs.addf(p, "must be a number from %g to %g %s, got null; a contour has exactly one budget, the other "+
			"member is omitted", lo, hi, unit)
		return 0, false, false
	}
	v, valid = d.number(p, m.String())
	if !valid {
		return 0, true, false
	}
	if v < lo || v > hi {
		d.errs.addf(p, "must be from %g to %g %s, got %s", lo, hi, unit, formatNumber(v))
		return 0, true, false
	}
	return v, true, true
}

// unknownBelow is the pointer to a member the client named in the object p points to. A member named "" is
// pointed at as the object itself, which is what clients have been answered so far; RFC 6901 would write p
// followed by "/".
func unknownBelow(p jsonscan.Pointer, name []byte) jsonscan.Pointer {
	if len(name) == 0 {
		return p
	}
	return p.Member(string(name))
}
