package api

import (
	"strconv"
	"strings"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/jsonscan"
	"github.com/mapsco/maps/pkg/route"
)

// This file decodes what a request keeps its routes off besides exclude (issue 35): avoid_areas, a GeoJSON
// Polygon or MultiPolygon; max_hiking_difficulty, a sac_scale grade for the walking profiles; avoid_steps for
// the bicycle. Each bad value is reported at its own pointer.

// Limits of avoid_areas: the polygons, and the positions of all their rings together (closing ones included).
const (
	MaxAvoidPolygons  = 10
	MaxAvoidPositions = 1000
	minRingPositions  = 4 // a triangle and its closing position (RFC 7946, section 3.1.6)
)

// avoidRead is what the avoid members of one request held, checked against the profile and the waypoints once
// the whole object is read (members come in any order).
type avoidRead struct {
	avoid              route.Avoid
	hiking, steps      bool // the member was sent
	profileBad         bool // the profile member was invalid: no check against it
	polygons           [][][][2]float64
	geometryType       string
	coordinates        jsonscan.Scanner // at avoid_areas' coordinates, read once the type is known
	hasType, hasCoords bool
	coordsRead         bool // read when met, the type being known already
	areaOK             bool
}

// read reads the avoid member the decoder is at.
func (a *avoidRead) read(d *decoder) {
	switch d.member {
	case memberAvoidAreas:
		a.areaOK = d.avoidAreas(a)
	case memberMaxHikingDifficulty:
		a.hiking = true
		a.avoid.MaxHiking = d.hikingDifficulty()
	case memberAvoidSteps:
		a.steps = true
		a.avoid.Steps = d.boolean(memberPointer("avoid_steps"), false)
	}
}

// profile reads the profile member, noting whether it was valid.
func (a *avoidRead) profile(d *decoder, def string) string {
	before := d.errs.total
	p := d.profile(def)
	a.profileBad = d.errs.total > before
	return p
}

// check reports an option sent for a profile it does not apply to, and makes the area's index. It returns
// what the request avoids.
func (a *avoidRead) check(d *decoder, profile string) route.Avoid {
	walking := profile == ProfilePedestrian || profile == ProfilePedestrianLoaded
	if a.hiking && !walking && !a.profileBad {
		d.errs.addf(memberPointer("max_hiking_difficulty"), "applies to the pedestrian and pedestrian_loaded profiles only, not %s", profile)
	}
	if a.steps && profile != ProfileBicycle && !a.profileBad {
		d.errs.addf(memberPointer("avoid_steps"), "applies to the bicycle profile only, not %s", profile)
	}
	if a.areaOK && len(a.polygons) > 0 {
		a.avoid.Areas = geo.NewArea(a.polygons)
	}
	return a.avoid
}

// inside reports, at its pointer, each point that lies in an avoided polygon: no route may reach it. The
// points are only checked when nothing else was wrong (an invalid coordinate is left out of the list, so the
// indexes would not match).
func (a *avoidRead) inside(d *decoder, member string, pts []Coordinate) {
	if a.avoid.Areas == nil || d.errs.total > 0 {
		return
	}
	for i, c := range pts {
		p := memberPointer(member)
		if member != "origin" {
			p = p.Index(i)
		}
		if k, in := a.avoid.Areas.Contains(c[0], c[1]); in {
			d.errs.addf(p, "lies inside polygon %d of avoid_areas, whose roads are not entered: no route reaches it", k)
		}
	}
}

// hikingWant lists the grades of max_hiking_difficulty, for messages.
var hikingWant = `one of "` + strings.Join(route.HikingNames, `", "`) + `"`

// hikingDifficulty reads max_hiking_difficulty: a sac_scale grade, "T1" to "T6".
func (d *decoder) hikingDifficulty() uint8 {
	p := memberPointer("max_hiking_difficulty")
	s, present, ok := d.stringValue(p, "a string, "+hikingWant)
	if !present || !ok {
		return 0
	}
	g, known := route.ParseHiking(string(s))
	if !known {
		d.errs.addf(p, "unknown hiking difficulty %s; must be %s (OSM sac_scale)", quoteValue(s), hikingWant)
	}
	return g
}

// avoidAreas reads the avoid_areas geometry object. Its coordinates are read after the object, once its type
// says how deep they nest; it reports whether the geometry is valid.
func (d *decoder) avoidAreas(a *avoidRead) bool {
	p := memberPointer("avoid_areas")
	const want = `a GeoJSON geometry object {"type": "Polygon" or "MultiPolygon", "coordinates": [...]}`
	if k := d.s.Kind(); k != jsonscan.Object {
		d.wrongOrNull(p, want, k)
		d.s.Skip()
		return false
	}
	before := d.errs.total
	d.s.Enter()
	for first := true; d.s.Next('}', first); first = false {
		name := string(d.s.MemberName())
		switch {
		case name == "type" && !a.hasType:
			a.hasType = true
			if s, present, ok := d.stringValue(p.Member("type"), `"Polygon" or "MultiPolygon"`); present && ok {
				a.geometryType = string(s)
			}
		case name == "coordinates" && !a.hasCoords && geometryDepth(a.geometryType) > 0:
			// The type came first, as most clients send it: one pass.
			a.hasCoords, a.coordsRead = true, true
			a.polygons = d.areaCoordinates(p.Member("coordinates"), geometryDepth(a.geometryType) == 4)
		case name == "coordinates" && !a.hasCoords:
			a.hasCoords, a.coordinates = true, d.s
			d.s.Skip()
		case name == "type" || name == "coordinates":
			d.errs.addf(p.Member(name), "appears more than once")
			d.s.Skip()
		default:
			d.errs.addf(unknownBelow(p, []byte(name)), `is not a member of avoid_areas; a geometry has "type" and "coordinates"`)
			d.s.Skip()
		}
	}
	if d.s.Failed() {
		return false
	}
	depth := geometryDepth(a.geometryType)
	switch {
	case !a.hasType:
		d.errs.addf(p.Member("type"), `is required: "Polygon" or "MultiPolygon"`)
	case depth == 0 && a.geometryType != "":
		d.errs.addf(p.Member("type"), `must be "Polygon" or "MultiPolygon", got %s`, quoteValue([]byte(a.geometryType)))
	}
	if !a.hasCoords {
		d.errs.addf(p.Member("coordinates"), "is required: an array of linear rings, each an array of [longitude, latitude] positions")
	} else if depth > 0 && !a.coordsRead {
		rest := d.s
		d.s = a.coordinates
		a.polygons = d.areaCoordinates(p.Member("coordinates"), depth == 4)
		d.s = rest
	}
	return d.errs.total == before
}

// geometryDepth is how deep a geometry type's coordinates nest (3 for a Polygon's rings of positions of
// numbers, 4 for a MultiPolygon), 0 for a type avoid_areas does not take.
func geometryDepth(t string) int {
	switch t {
	case "Polygon":
		return 3
	case "MultiPolygon":
		return 4
	}
	return 0
}

// areaCoordinates reads a Polygon's rings (multi false) or a MultiPolygon's polygons, within the limits.
func (d *decoder) areaCoordinates(p jsonscan.Pointer, multi bool) [][][][2]float64 {
	positions := 0
	if !multi {
		rings := d.polygonAt(p.String(), &positions)
		d.positionLimit(p, positions)
		return [][][][2]float64{rings}
	}
	if !d.enterArray(p, "an array of polygons, each an array of linear rings") {
		return nil
	}
	var polys [][][][2]float64
	n := 0
	for first := true; d.s.Next(']', first); first, n = false, n+1 {
		if n >= MaxAvoidPolygons {
			d.s.Skip()
			continue
		}
		polys = append(polys, d.polygonAt(p.String()+"/"+strconv.Itoa(n), &positions))
	}
	switch {
	case d.s.Failed():
	case n == 0:
		d.errs.addf(p, "must hold at least one polygon")
	case n > MaxAvoidPolygons:
		d.errs.addf(p, "must hold at most %d polygons, got %d", MaxAvoidPolygons, n)
	}
	d.positionLimit(p, positions)
	return polys
}

// positionLimit reports more positions than MaxAvoidPositions in all.
func (d *decoder) positionLimit(p jsonscan.Pointer, positions int) {
	if positions > MaxAvoidPositions && !d.s.Failed() {
		d.errs.addf(p, "must hold at most %d positions in all its rings, got %d", MaxAvoidPositions, positions)
	}
}

// polygonAt is polygon for the polygon at path: its values are deeper than a jsonscan.Pointer reaches
// (/avoid_areas/coordinates/0/1/2/0 is six levels), so they are read by a decoder of their own, whose pointers
// start at the polygon, and its errors reported here under path.
func (d *decoder) polygonAt(path string, positions *int) [][][2]float64 {
	sub := decoder{s: d.s}
	rings := sub.polygon(jsonscan.Pointer{}, positions)
	d.s = sub.s
	d.errs.addBelow(path, sub.errs)
	return rings
}

// polygon reads one polygon's rings, the first its outer ring, counting their positions into *positions.
func (d *decoder) polygon(p jsonscan.Pointer, positions *int) [][][2]float64 {
	if !d.enterArray(p, "an array of linear rings, each an array of [longitude, latitude] positions") {
		return nil
	}
	var rings [][][2]float64
	n := 0
	for first := true; d.s.Next(']', first); first, n = false, n+1 {
		rings = append(rings, d.ring(p.Index(n), positions))
	}
	if n == 0 && !d.s.Failed() {
		d.errs.addf(p, "must hold at least one linear ring (the outer one)")
	}
	return rings
}

// ring reads one linear ring: at least 4 valid positions, the last the same as the first. Positions past the
// limit of all rings are only checked for syntax.
func (d *decoder) ring(p jsonscan.Pointer, positions *int) [][2]float64 {
	if !d.enterArray(p, "a linear ring: an array of at least 4 [longitude, latitude] positions, the last equal to the first") {
		return nil
	}
	var ring [][2]float64
	n, valid := 0, true
	for first := true; d.s.Next(']', first); first, n = false, n+1 {
		*positions++
		if *positions > MaxAvoidPositions {
			d.s.Skip()
			continue
		}
		c, ok := d.coordinate(p.Index(n))
		valid = valid && ok
		ring = append(ring, c)
	}
	switch {
	case d.s.Failed() || *positions > MaxAvoidPositions:
	case n < minRingPositions:
		d.errs.addf(p, "must hold at least %d positions (a closed ring repeats its first at the end), got %d", minRingPositions, n)
	case valid && ring[0] != ring[n-1]:
		d.errs.addf(p, "is not closed: its last position must equal its first (RFC 7946, section 3.1.6)")
	}
	return ring
}
