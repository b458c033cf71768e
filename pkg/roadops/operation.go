package roadops

import (
	"slices"
	"time"
)

// Kind says what an operation does to the roads it covers.
type Kind string

// The kinds of operation.
const (
	// KindClosure: the road may not be entered (in the operation's
	// direction).
	KindClosure Kind = "closure"
	// KindSlowdown: the road takes longer to travel, by Factor or down to
	// SpeedKPH, never less long than normal.
	KindSlowdown Kind = "slowdown"
)

// Direction says which way along the OSM way an operation applies.
type Direction string

// The directions of an operation.
const (
	// DirForward is the OSM way's own direction (its node order).
	DirForward Direction = "forward"
	// DirBackward is against the way's node order.
	DirBackward Direction = "backward"
	// DirBoth is both directions, the default.
	DirBoth Direction = "both"
)

// Review is an operation's review state. Only reviewed operations apply.
type Review string

// The review states.
const (
	ReviewDraft     Review = "draft"
	ReviewReviewed  Review = "reviewed"
	ReviewWithdrawn Review = "withdrawn"
)

// Profiles are the profile names an operation may be limited to.
var Profiles = []string{"moto", "car", "truck", "bicycle", "pedestrian", "pedestrian_loaded"}

// Operation is a closure or slowdown of a stretch of road. Exactly one of
// Way, Line and Polygon says where; coordinates are [lon, lat] in WGS 84.
type Operation struct {
	// ID is "op_" and a ULID, given by Store.Add.
	ID    string `json:"id"`
	Kind  Kind   `json:"kind"`
	State Review `json:"state"`
	// Way is an OSM way id. With From and To, only the part of the way
	// between the two points (the points need not lie on it exactly).
	Way  int64       `json:"way,omitempty"`
	From *[2]float64 `json:"from,omitempty"`
	To   *[2]float64 `json:"to,omitempty"`
	// Line is a line the service matches onto the roads it follows.
	Line [][2]float64 `json:"line,omitempty"`
	// Polygon is a GeoJSON Polygon's rings (outer first, then holes):
	// every road inside.
	Polygon [][][2]float64 `json:"polygon,omitempty"`
	// Direction defaults to DirBoth. For a line it is relative to the
	// line's own order; for a polygon only DirBoth makes sense.
	Direction Direction `json:"direction"`
	// Factor (slowdown): travel time × Factor, 1 < Factor <= 100.
	Factor float64 `json:"factor,omitempty"`
	// SpeedKPH (slowdown): at most this speed, never faster than normal.
	SpeedKPH float64 `json:"speed_kph,omitempty"`
	// Profiles limits the operation to these profiles; empty means all.
	Profiles []string `json:"profiles,omitempty"`
	// ValidFrom and ValidUntil bound when the operation applies: from
	// ValidFrom (inclusive; nil: always has) until ValidUntil (exclusive;
	// nil: open-ended).
	ValidFrom  *time.Time `json:"valid_from,omitempty"`
	ValidUntil *time.Time `json:"valid_until,omitempty"`
	// Reason says why, for people; Reference points at the authority's
	// notice or ticket.
	Reason    string    `json:"reason"`
	Reference string    `json:"reference,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Active reports whether the operation applies at t: reviewed, and t within
// [ValidFrom, ValidUntil).
func (o *Operation) Active(t time.Time) bool {
	if o.State != ReviewReviewed {
		return false
	}
	if o.ValidFrom != nil && t.Before(*o.ValidFrom) {
		return false
	}
	return o.ValidUntil == nil || t.Before(*o.ValidUntil)
}

// ForProfile reports whether the operation applies to profile p.
func (o *Operation) ForProfile(p string) bool {
	return len(o.Profiles) == 0 || slices.Contains(o.Profiles, p)
}

// clone returns a deep copy, so that callers never share slices with a
// store's state.
func (o Operation) clone() Operation {
	c := o
	if o.From != nil {
		f := *o.From
		c.From = &f
	}
	if o.To != nil {
		t := *o.To
		c.To = &t
	}
	c.Line = slices.Clone(o.Line)
	if o.Polygon != nil {
		c.Polygon = make([][][2]float64, len(o.Polygon))
		for i, r := range o.Polygon {
			c.Polygon[i] = slices.Clone(r)
		}
	}
	c.Profiles = slices.Clone(o.Profiles)
	if o.ValidFrom != nil {
		v := *o.ValidFrom
		c.ValidFrom = &v
	}
	if o.ValidUntil != nil {
		v := *o.ValidUntil
		c.ValidUntil = &v
	}
	return c
}
