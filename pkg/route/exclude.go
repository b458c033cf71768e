package route

import (
	"fmt"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
)

// Exclude is a set of kinds of road a request will not use (issue 35):
// their arcs are closed for that request only, through the same overlay
// road operations use (operations.go), so the hierarchy compiled for the
// normal network still answers and a route that would cross them is found
// again exactly (repair.go). The zero value excludes nothing.
type Exclude uint8

// The kinds, from the OSM tags mapc keeps per segment (graph.Net.SegFlags
// and SegClass).
const (
	ExcludeToll     Exclude = 1 << iota // toll=yes
	ExcludeMotorway                     // highway=motorway and motorway_link
	ExcludeFerry                        // route=ferry
	ExcludeUnpaved                      // graph.FlagUnpaved: an unpaved surface, or a track of grade2 or worse without one
	ExcludeTunnel                       // tunnel=* other than no
	excludeAll      = 1<<iota - 1
)

// ExcludeNames are the kinds' names in requests, in bit order.
var ExcludeNames = []string{"toll", "motorway", "ferry", "unpaved", "tunnel"}

// ParseExclude returns the kind named name, false for an unknown name.
func ParseExclude(name string) (Exclude, bool) {
	for i, n := range ExcludeNames {
		if n == name {
			return 1 << i, true
		}
	}
	return 0, false
}

// String lists the kinds, comma-separated, in bit order.
func (x Exclude) String() string {
	var names []string
	for i, n := range ExcludeNames {
		if x&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

// Phrase lists the kinds for a message: "toll, tunnel".
func (x Exclude) Phrase() string { return strings.ReplaceAll(x.String(), ",", ", ") }

// excludes reports whether x forbids segment s.
func (x Exclude) excludes(net *graph.Network, s uint32) bool {
	f := net.SegFlags[s]
	switch {
	case x&ExcludeToll != 0 && f&graph.FlagToll != 0,
		x&ExcludeFerry != 0 && f&graph.FlagFerry != 0,
		x&ExcludeUnpaved != 0 && f&graph.FlagUnpaved != 0,
		x&ExcludeTunnel != 0 && f&graph.FlagTunnel != 0:
		return true
	case x&ExcludeMotorway != 0:
		c := net.Class(s)
		return c == "motorway" || c == "motorway_link"
	}
	return false
}

// excludedArcs returns g's arcs on the segments x forbids, made once per
// set of kinds and router (a pass over every segment) and kept.
func (r *Router) excludedArcs(x Exclude) []uint32 {
	if x == 0 || x&^excludeAll != 0 {
		return nil
	}
	slot := &r.excluded[x]
	if arcs := slot.Load(); arcs != nil {
		return *arcs
	}
	net := r.g.Net
	arcs := []uint32{}
	for s := range uint32(net.NumSegments()) {
		if !x.excludes(net, s) {
			continue
		}
		for _, rev := range [2]bool{false, true} {
			if a := r.g.ArcOf[graph.SegRef(s, rev)]; a != graph.NoArc {
				arcs = append(arcs, a)
			}
		}
	}
	slot.Store(&arcs)
	return arcs
}

// ExcludedError is the error of a route that exists only on roads the
// request excludes, or its vehicle is refused: Exclude names the kinds,
// Vehicle the vehicle.
type ExcludedError struct {
	Index   int // the leg's first waypoint
	Exclude Exclude
	Vehicle Vehicle
	Avoid   Avoid // what else the request kept off (avoid.go)
}

func (e *ExcludedError) Error() string {
	return fmt.Sprintf("no route from waypoint %d to waypoint %d %s", e.Index, e.Index+1, e.Reason())
}

// Reason says what the request ruled out: "without toll roads", "for a
// vehicle 4.4 m high", "outside avoid_areas", or several: "without toll
// roads for a vehicle 4.4 m high, outside avoid_areas".
func (e *ExcludedError) Reason() string {
	var parts []string
	if e.Exclude != 0 {
		parts = append(parts, "without "+e.Exclude.Phrase()+" roads")
	}
	if !e.Vehicle.IsZero() {
		parts = append(parts, "for a vehicle "+e.Vehicle.Phrase())
	}
	reason := strings.Join(parts, " ")
	if p := e.Avoid.Phrase(); p != "" {
		if reason != "" {
			reason += ", "
		}
		reason += p
	}
	return reason
}
