package api

import (
	"bytes"
	"math"
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/jsonscan"
)

// This file holds the decoders of individual fields. Each reads one value at the scanner's position, whatever
// its type, so the walk stays in step with the document; what is wrong is reported at the value's pointer.
// An optional member set to null is refused at its pointer: the OpenAPI document declares no member nullable
// (only items of radiuses and bearings may be null), and a client that sent null most likely meant a value.
// Omitting the member gives its default.

// coordinateList reads an array of coordinates into dst, which the caller sizes to hold max items, and sets
// d.items to how many the array held. Items past max are only checked for syntax: one error for the length
// says enough, and the work stays bounded. Invalid items are reported and left out of dst.
func (d *decoder) coordinateList(p jsonscan.Pointer, dst []Coordinate, min, max int) []Coordinate {
	if k := d.s.Kind(); k != jsonscan.Array {
		d.errs.wrongType(p, "an array of coordinates [longitude, latitude]", k)
		d.s.Skip()
		return nil
	}
	d.s.Enter()
	n := 0
	for first := true; d.s.Next(']', first); first = false {
		if n < max {
			if c, ok := d.coordinate(p.Index(n)); ok {
				dst = append(dst, c)
			}
		} else {
			d.s.Skip()
		}
		n++
	}
	if !d.s.Failed() && (n < min || n > max) {
		d.errs.addf(p, "must hold %d to %d coordinates, got %d", min, max, n)
	}
	d.items = n
	return dst
}

// coordinate reads one [longitude, latitude] pair and checks its ranges.
func (d *decoder) coordinate(p jsonscan.Pointer) (Coordinate, bool) {
	var c Coordinate
	if k := d.s.Kind(); k != jsonscan.Array {
		d.errs.wrongType(p, "an array of 2 numbers [longitude, latitude]", k)
		d.s.Skip()
		return c, false
	}
	d.s.Enter()
	n, numbers := 0, true
	for first := true; d.s.Next(']', first); first = false {
		if n < len(c) {
			var ok bool
			c[n], ok = d.number(p.Index(n), axis(n))
			numbers = numbers && ok
		} else {
			d.s.Skip()
		}
		n++
	}
	if n != len(c) {
		if !d.s.Failed() {
			d.errs.addf(p, "must be an array of exactly 2 numbers [longitude, latitude], got %d items", n)
		}
		return c, false
	}
	return c, numbers && d.inRange(p, c)
}

// axis returns the name of a coordinate's element n (0 or 1).
func axis(n int) string {
	if n == 0 {
		return "longitude"
	}
	return "latitude"
}

// inRange checks a coordinate's ranges. A latitude outside ±90 is most often a pair sent as [lat, lon]: when
// swapping would make the pair valid, the message says so.
func (d *decoder) inRange(p jsonscan.Pointer, c Coordinate) bool {
	lon, lat := c[0], c[1]
	ok := true
	if lon < -180 || lon > 180 {
		d.errs.addf(p.Index(0), "longitude must be between -180 and 180, got %s", formatNumber(lon))
		ok = false
	}
	if lat < -90 || lat > 90 {
		if lat >= -180 && lat <= 180 && lon >= -90 && lon <= 90 {
			d.errs.addf(p.Index(1), "latitude must be between -90 and 90, got %s: the pair looks swapped; "+
				"coordinates are [longitude, latitude]", formatNumber(lat))
		} else {
			d.errs.addf(p.Index(1), "latitude must be between -90 and 90, got %s; coordinates are "+
				"[longitude, latitude]", formatNumber(lat))
		}
		ok = false
	}
	return ok
}

// number reads a finite number; what names it in messages ("longitude").
func (d *decoder) number(p jsonscan.Pointer, what string) (float64, bool) {
	if k := d.s.Kind(); k != jsonscan.Number {
		d.errs.wrongType(p, "a number ("+what+")", k)
		d.s.Skip()
		return 0, false
	}
	v, finite := d.s.ReadNumber()
	if !finite && !d.s.Failed() {
		d.errs.addf(p, "%s is too large to be a finite number", what)
	}
	return v, finite
}

// wrongOrNull reports a value of the wrong type, saying for null that omitting the member gives the default.
func (d *decoder) wrongOrNull(p jsonscan.Pointer, want string, got jsonscan.Kind) {
	if got == jsonscan.Null {
		d.errs.addf(p, "must not be null: omit the member for its default, or send %s", want)
		return
	}
	d.errs.wrongType(p, want, got)
}

// stringValue reads a string and returns its unescaped content, valid until the next call; ok is false (and
// the error reported) for another type, null included.
func (d *decoder) stringValue(p jsonscan.Pointer, want string) (s []byte, present, ok bool) {
	if k := d.s.Kind(); k != jsonscan.String {
		d.wrongOrNull(p, want, k)
		d.s.Skip()
		return nil, false, false
	}
	return d.s.ReadString(), true, !d.s.Failed()
}

// profile reads the profile, returning def when it is null or invalid (the error is then reported).
func (d *decoder) profile(def string) string {
	const list = "moto, car, truck, bicycle, pedestrian, pedestrian_loaded" // Profiles(), kept constant
	p := memberPointer("profile")
	s, present, ok := d.stringValue(p, "a string, one of "+list)
	if !present || !ok {
		return def
	}
	// Returning the constants, not a copy of s, keeps a valid profile free of allocation.
	switch string(s) {
	case ProfileMoto:
		return ProfileMoto
	case ProfileCar:
		return ProfileCar
	case ProfileTruck:
		return ProfileTruck
	case ProfileBicycle:
		return ProfileBicycle
	case ProfilePedestrian:
		return ProfilePedestrian
	case ProfilePedestrianLoaded:
		return ProfilePedestrianLoaded
	}
	d.errs.addf(p, "unknown profile %s; valid profiles: %s", quoteValue(s), list)
	return def
}

// geometryFormat reads the geometry format of a directions request.
func (d *decoder) geometryFormat(def string) string {
	p := memberPointer("geometry_format")
	s, present, ok := d.stringValue(p, `"polyline6" or "geojson"`)
	if !present || !ok {
		return def
	}
	switch string(s) {
	case GeometryPolyline6:
		return GeometryPolyline6
	case GeometryGeoJSON:
		return GeometryGeoJSON
	}
	d.errs.addf(p, `unknown geometry format %s; valid formats: "polyline6", "geojson"`, quoteValue(s))
	return def
}

// language reads the language of the instructions: a BCP 47 tag whose
// primary subtag is one of guidance.Languages ("ca", "fr-FR").
func (d *decoder) language(def string) string {
	p := memberPointer("language")
	want := `one of "` + strings.Join(guidance.Languages, `", "`) + `"`
	s, present, ok := d.stringValue(p, "a language tag, "+want)
	if !present || !ok {
		return def
	}
	if lang, ok := guidance.Language(string(s)); ok {
		return lang
	}
	d.errs.addf(p, "unknown language %s; valid languages: %s", quoteValue(s), want)
	return def
}

// departureTime reads an RFC 3339 date-time, which must carry a UTC offset ("Z" or "+01:00"): a local time
// without one would be read in the server's zone, which the client cannot know.
func (d *decoder) departureTime() (time.Time, bool) {
	p := memberPointer("departure_time")
	const want = "an RFC 3339 date-time with a UTC offset, e.g. 2026-11-24T08:00:00+01:00 or 2026-11-24T08:00:00Z"
	s, present, ok := d.stringValue(p, "a string, "+want)
	if !present || !ok {
		return time.Time{}, false
	}
	text := upperRFC3339(s)
	t, err := time.Parse(time.RFC3339, text)
	if err == nil {
		return t, true
	}
	if _, local := time.Parse("2006-01-02T15:04:05", text); local == nil {
		d.errs.addf(p, "has no UTC offset; must be %s", want)
	} else {
		d.errs.addf(p, "must be %s, got %s", want, quoteValue(s))
	}
	return time.Time{}, false
}

// upperRFC3339 returns s with 't' and 'z' in upper case: RFC 3339 allows either case and time.Parse only upper.
// The body is never modified; a copy is made only when a lower-case letter is present.
func upperRFC3339(s []byte) string {
	if !bytes.ContainsAny(s, "tz") {
		return string(s)
	}
	return string(bytes.Map(func(r rune) rune {
		if r == 't' || r == 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s))
}

// alternatives reads the number of alternative routes: an integer, although 1.0 and 1e0 are accepted as the
// same number (JSON does not tell integers apart).
func (d *decoder) alternatives(def int) int {
	p := memberPointer("alternatives")
	if k := d.s.Kind(); k != jsonscan.Number {
		d.wrongOrNull(p, "an integer from 0 to 3", k)
		d.s.Skip()
		return def
	}
	v, finite := d.s.ReadNumber()
	switch {
	case d.s.Failed():
	case !finite || math.Trunc(v) != v:
		d.errs.addf(p, "must be an integer from %d to %d, got %s", MinAlternatives, MaxAlternatives, numberText(v, finite))
	case v < MinAlternatives || v > MaxAlternatives:
		d.errs.addf(p, "must be from %d to %d, got %s", MinAlternatives, MaxAlternatives, formatNumber(v))
	default:
		return int(v)
	}
	return def
}

// numberText prints a number for a message, including one too large for a float64.
func numberText(v float64, finite bool) string {
	if !finite {
		return "a number too large for a double"
	}
	return formatNumber(v)
}

// boolean reads an optional boolean.
func (d *decoder) boolean(p jsonscan.Pointer, def bool) bool {
	if k := d.s.Kind(); k != jsonscan.Bool {
		d.wrongOrNull(p, "a boolean", k)
		d.s.Skip()
		return def
	}
	return d.s.ReadBool()
}
