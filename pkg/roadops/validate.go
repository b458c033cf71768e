package roadops

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Limits of an operation's content.
const (
	// MaxVertices bounds the points of a line or of a polygon's rings
	// together: enough for a district, small enough to resolve at once.
	MaxVertices = 1000
	// MaxFactor is the largest slowdown factor; beyond it, close the road.
	MaxFactor = 100
	// MaxSpeedKPH bounds a slowdown's speed (exclusive).
	MaxSpeedKPH = 200
	// MaxTextLen bounds Reason and Reference, in bytes.
	MaxTextLen = 1000
)

// ErrInvalid is wrapped by every error of Validate.
var ErrInvalid = errors.New("invalid operation")

// FieldError is an invalid field of an operation: Field is its JSON name.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("invalid operation: %s: %s", e.Field, e.Msg) }

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func invalid(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks the operation's content and returns the first problem
// found as a *FieldError naming the field. The ID, state and timestamps are
// the store's and are checked only for a known state.
func (o *Operation) Validate() error {
	checks := []func() error{o.validateKind, o.validateState, o.validateWhere, o.validateDirection,
		o.validateEffect, o.validateProfiles, o.validateWindow, o.validateText}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (o *Operation) validateKind() error {
	if o.Kind != KindClosure && o.Kind != KindSlowdown {
		return invalid("kind", "%q: want closure or slowdown", o.Kind)
	}
	return nil
}

func (o *Operation) validateState() error {
	switch o.State {
	case "", ReviewDraft, ReviewReviewed, ReviewWithdrawn:
		return nil
	}
	return invalid("state", "%q: want draft, reviewed or withdrawn", o.State)
}

// validateWhere checks that exactly one of way, line and polygon is given,
// and that it is well formed.
func (o *Operation) validateWhere() error {
	given := []string{}
	if o.Way != 0 {
		given = append(given, "way")
	}
	if o.Line != nil {
		given = append(given, "line")
	}
	if o.Polygon != nil {
		given = append(given, "polygon")
	}
	switch len(given) {
	case 0:
		return invalid("way", "give one of way, line or polygon")
	case 1:
	default:
		return invalid(given[1], "give only one of way, line or polygon (got %s)", strings.Join(given, " and "))
	}
	if (o.From == nil) != (o.To == nil) {
		return invalid("from", "from and to go together")
	}
	if o.From != nil && o.Way == 0 {
		return invalid("from", "from and to only narrow a way")
	}
	switch {
	case o.Way != 0:
		return o.validateWay()
	case o.Line != nil:
		return validateLine(o.Line)
	}
	return validatePolygon(o.Polygon)
}

func (o *Operation) validateWay() error {
	if o.Way < 0 {
		return invalid("way", "%d: an OSM way id is positive", o.Way)
	}
	if o.From == nil {
		return nil
	}
	if err := checkPoint("from", *o.From); err != nil {
		return err
	}
	if err := checkPoint("to", *o.To); err != nil {
		return err
	}
	if *o.From == *o.To {
		return invalid("to", "the same point as from: give two points along the way")
	}
	return nil
}

func validateLine(line [][2]float64) error {
	if len(line) < 2 {
		return invalid("line", "%d point(s): a line has at least 2", len(line))
	}
	if len(line) > MaxVertices {
		return invalid("line", "%d points: at most %d", len(line), MaxVertices)
	}
	for i, p := range line {
		if err := checkPoint(fmt.Sprintf("line[%d]", i), p); err != nil {
			return err
		}
	}
	return nil
}

func validatePolygon(rings [][][2]float64) error {
	if len(rings) == 0 {
		return invalid("polygon", "no ring: give the outer ring first")
	}
	total := 0
	for r, ring := range rings {
		field := fmt.Sprintf("polygon[%d]", r)
		total += len(ring)
		if total > MaxVertices {
			return invalid("polygon", "more than %d vertices", MaxVertices)
		}
		if len(ring) < 4 {
			return invalid(field, "%d point(s): a ring has at least 4, the last equal to the first", len(ring))
		}
		for i, p := range ring {
			if err := checkPoint(fmt.Sprintf("%s[%d]", field, i), p); err != nil {
				return err
			}
		}
		if ring[0] != ring[len(ring)-1] {
			return invalid(field, "not closed: its last point must equal its first")
		}
	}
	return nil
}

// checkPoint checks a [lon, lat] pair.
func checkPoint(field string, p [2]float64) error {
	lon, lat := p[0], p[1]
	switch {
	case math.IsNaN(lon) || math.IsInf(lon, 0) || lon < -180 || lon > 180:
		return invalid(field, "longitude %v out of range [-180, 180] (points are [lon, lat])", lon)
	case math.IsNaN(lat) || math.IsInf(lat, 0) || lat < -90 || lat > 90:
		return invalid(field, "latitude %v out of range [-90, 90] (points are [lon, lat])", lat)
	}
	return nil
}

func (o *Operation) validateDirection() error {
	switch o.Direction {
	case "", DirBoth:
		return nil
	case DirForward, DirBackward:
		if o.Polygon != nil {
			return invalid("direction", "%q: a polygon has no direction; use both", o.Direction)
		}
		return nil
	}
	return invalid("direction", "%q: want forward, backward or both", o.Direction)
}

// validateEffect checks the slowdown's amount, and that a closure has none.
func (o *Operation) validateEffect() error {
	if o.Kind == KindClosure {
		if o.Factor != 0 {
			return invalid("factor", "a closure has no factor")
		}
		if o.SpeedKPH != 0 {
			return invalid("speed_kph", "a closure has no speed")
		}
		return nil
	}
	switch {
	case o.Factor != 0 && o.SpeedKPH != 0:
		return invalid("factor", "give factor or speed_kph, not both")
	case o.Factor == 0 && o.SpeedKPH == 0:
		return invalid("factor", "a slowdown needs factor or speed_kph")
	case o.Factor != 0 && !(o.Factor > 1 && o.Factor <= MaxFactor):
		return invalid("factor", "%v: want more than 1 and at most %d (travel time × factor)", o.Factor, MaxFactor)
	case o.SpeedKPH != 0 && !(o.SpeedKPH > 0 && o.SpeedKPH < MaxSpeedKPH):
		return invalid("speed_kph", "%v: want more than 0 and less than %d", o.SpeedKPH, MaxSpeedKPH)
	}
	return nil
}

func (o *Operation) validateProfiles() error {
	for i, p := range o.Profiles {
		if !slices.Contains(Profiles, p) {
			return invalid("profiles", "%q: want among %s", p, strings.Join(Profiles, ", "))
		}
		if slices.Contains(o.Profiles[:i], p) {
			return invalid("profiles", "%q given twice", p)
		}
	}
	return nil
}

func (o *Operation) validateWindow() error {
	if o.ValidFrom != nil && o.ValidUntil != nil && !o.ValidUntil.After(*o.ValidFrom) {
		return invalid("valid_until", "%s is not after valid_from %s", o.ValidUntil.Format("2006-01-02T15:04:05Z07:00"),
			o.ValidFrom.Format("2006-01-02T15:04:05Z07:00"))
	}
	return nil
}

func (o *Operation) validateText() error {
	switch {
	case strings.TrimSpace(o.Reason) == "":
		return invalid("reason", "required: say why (it is shown to operators and in the history)")
	case len(o.Reason) > MaxTextLen:
		return invalid("reason", "%d bytes: at most %d", len(o.Reason), MaxTextLen)
	case len(o.Reference) > MaxTextLen:
		return invalid("reference", "%d bytes: at most %d", len(o.Reference), MaxTextLen)
	}
	return nil
}
