package api

import (
	"fmt"

	"github.com/mapsco/maps/pkg/jsonscan"
)

// This file walks the top-level object of a request: it opens it, names each member, catches repeated and
// missing members, and finally turns what was found into an *InvalidRequest or nothing.

// member is a member name the decoders know. One enumeration serves all five requests; each decoder handles
// the members of its own request and reports the others like any unknown name (see decode_unknown.go).
type member uint8

const (
	memberUnknown member = iota
	memberCoordinates
	memberProfile
	memberDepartureTime
	memberAlternatives
	memberGeometryFormat
	memberIncludeSteps
	memberSources
	memberTargets
	memberOrigin
	memberContours
	memberTimeMinutes
	memberDistanceKm
	memberRadiuses
	memberBearings
	memberSourceRadiuses
	memberSourceBearings
	memberTargetRadiuses
	memberTargetBearings
	memberRadius
	memberBearing
	memberTimestamps
	memberLanguage
	memberExclude
	memberVehicle
	memberAvoidAreas
	memberMaxHikingDifficulty
	memberAvoidSteps
	numMembers
)

// memberOf maps a (unescaped) name to its member; names are case-sensitive, as in the specification.
func memberOf(name []byte) member {
	switch string(name) {
	case "coordinates":
		return memberCoordinates
	case "profile":
		return memberProfile
	case "departure_time":
		return memberDepartureTime
	case "alternatives":
		return memberAlternatives
	case "geometry_format":
		return memberGeometryFormat
	case "include_steps":
		return memberIncludeSteps
	case "sources":
		return memberSources
	case "targets":
		return memberTargets
	case "origin":
		return memberOrigin
	case "contours":
		return memberContours
	case "time_minutes":
		return memberTimeMinutes
	case "distance_km":
		return memberDistanceKm
	case "radiuses":
		return memberRadiuses
	case "bearings":
		return memberBearings
	case "source_radiuses":
		return memberSourceRadiuses
	case "source_bearings":
		return memberSourceBearings
	case "target_radiuses":
		return memberTargetRadiuses
	case "target_bearings":
		return memberTargetBearings
	case "radius":
		return memberRadius
	case "bearing":
		return memberBearing
	case "timestamps":
		return memberTimestamps
	case "language":
		return memberLanguage
	case "exclude":
		return memberExclude
	case "vehicle":
		return memberVehicle
	case "avoid_areas":
		return memberAvoidAreas
	case "max_hiking_difficulty":
		return memberMaxHikingDifficulty
	case "avoid_steps":
		return memberAvoidSteps
	}
	return memberUnknown
}

// String returns the member's name in a request body.
func (m member) String() string {
	names := [numMembers]string{"", "coordinates", "profile", "departure_time", "alternatives", "geometry_format",
		"include_steps", "sources", "targets", "origin", "contours", "time_minutes", "distance_km", "radiuses",
		"bearings", "source_radiuses", "source_bearings", "target_radiuses", "target_bearings", "radius", "bearing", "timestamps", "language",
		"exclude", "vehicle", "avoid_areas", "max_hiking_difficulty", "avoid_steps"}
	if int(m) < len(names) {
		return names[m]
	}
	return ""
}

// memberSet records which members of one object have been read.
type memberSet uint32

// Every member has its bit in a memberSet (a longer enumeration fails to compile here).
var _ [32 - numMembers]struct{}

func (s memberSet) has(m member) bool { return s&(1<<m) != 0 }
func (s *memberSet) add(m member)     { *s |= 1 << m }

// decoder is the state of one decode: the scanner, the errors found, and the member being read.
type decoder struct {
	s       jsonscan.Scanner
	errs    fieldErrors
	member  member // set by nextMember
	name    []byte // the member's name, unescaped, valid until the scanner reads the next name or string
	items   int    // how many items the last coordinate list held, valid or not
	opened  bool   // the top-level '{' has been looked for
	members int    // members of the top-level object read so far
	notJSON string // detail for a top-level value that is not an object
}

// nextMember advances to the next member of the top-level object and sets d.member and d.name; it reports
// false at the end of the object or on an error. Unknown names come back as memberUnknown for the caller to
// report. A repeated member is reported and skipped here: which of two values a client meant is anyone's guess.
func (d *decoder) nextMember(seen *memberSet) bool {
	if !d.opened && !d.openTop() {
		return false
	}
	for d.s.Next('}', d.members == 0) {
		d.members++
		d.member = d.memberName()
		if d.member == memberUnknown || !seen.has(d.member) {
			seen.add(d.member)
			return true
		}
		d.errs.addf(memberPointer(d.member.String()), "appears more than once")
		d.s.Skip()
	}
	return false
}

// memberName reads the next member name of the current object as a known member, keeping the name in d.name.
func (d *decoder) memberName() member {
	d.name = d.s.MemberName()
	return memberOf(d.name)
}

// openTop consumes the '{' that must start the body.
func (d *decoder) openTop() bool {
	d.opened = true
	if d.s.AtEnd() {
		d.s.Fail("the request body is empty")
		return false
	}
	if k := d.s.Kind(); k != jsonscan.Object {
		if k != jsonscan.Invalid {
			d.notJSON = fmt.Sprintf("the request body must be a JSON object, found %s at byte %d", article(k), d.s.Offset())
		}
		return false
	}
	d.s.Enter()
	return true
}

// article returns the kind with "a" or "an", for the top-level detail.
func article(k jsonscan.Kind) string {
	switch k {
	case jsonscan.Object, jsonscan.Array:
		return "an " + k.String()
	case jsonscan.Null:
		return "null"
	}
	return "a " + k.String()
}

// require reports a required member that the object lacked; want completes "is required: ...".
func (d *decoder) require(seen memberSet, m member, want string, args ...any) {
	if seen.has(m) || d.s.Failed() || d.notJSON != "" {
		return
	}
	d.errs.addf(memberPointer(m.String()), "is required: "+want, args...)
}

// result ends the decode: it checks that nothing follows the object and reports, in order of precedence, a
// syntax error, a body that is not an object, or the field errors. It returns nil for a valid request.
func (d *decoder) result() *InvalidRequest {
	if d.notJSON == "" && !d.s.Failed() && !d.s.AtEnd() {
		d.s.Fail("unexpected data after the request object")
	}
	switch {
	case d.s.Failed():
		return &InvalidRequest{Detail: d.s.Err().Error(), Errors: []FieldError{}}
	case d.notJSON != "":
		return &InvalidRequest{Detail: d.notJSON, Errors: []FieldError{}}
	case d.errs.total > 0:
		return &InvalidRequest{Detail: d.errs.detail(), Errors: d.errs.list}
	}
	return nil
}
