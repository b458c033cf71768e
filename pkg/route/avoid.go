package route

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// Avoid is what a request keeps its routes off besides Exclude's kinds of
// road (issue 35 items 2 and 4). Like Exclude, it closes arcs in the
// request's overlay (operations.go), beside road operations: one way to
// change costs at query time. The zero value avoids nothing.
type Avoid struct {
	// Areas are polygons whose roads are not entered: a segment (a road
	// between two junctions) with a piece inside a polygon or crossing
	// its boundary is closed in both directions. Nil for none.
	Areas *geo.Area
	// MaxHiking closes the ways whose sac_scale is harder than grade
	// MaxHiking (1 for T1 to 6 for T6); 0 keeps the profile's own limit.
	// Ways without sac_scale are never closed by it.
	MaxHiking uint8
	// Steps closes highway=steps.
	Steps bool
}

// HikingNames are the grades of max_hiking_difficulty, T1 to T6, in order.
var HikingNames = []string{"T1", "T2", "T3", "T4", "T5", "T6"}

// ParseHiking returns the grade named name (1 for "T1"), false for none.
func ParseHiking(name string) (uint8, bool) {
	i := slices.Index(HikingNames, name)
	return uint8(i + 1), i >= 0
}

// None reports whether a avoids nothing.
func (a Avoid) None() bool { return a.Areas == nil && a.MaxHiking == 0 && !a.Steps }

// Phrase says what a keeps off, for messages: "outside the avoided areas,
// on trails no harder than T3, without steps".
func (a Avoid) Phrase() string {
	var parts []string
	if a.Areas != nil {
		parts = append(parts, "outside avoid_areas")
	}
	if a.MaxHiking > 0 && int(a.MaxHiking) <= len(HikingNames) {
		parts = append(parts, "on trails no harder than "+HikingNames[a.MaxHiking-1])
	}
	if a.Steps {
		parts = append(parts, "without steps")
	}
	return strings.Join(parts, ", ")
}

// key names the part of a that overlays are kept by (areas are made per
// request, never kept).
func (a Avoid) key() string { return fmt.Sprintf("h%d,s%t", a.MaxHiking, a.Steps) }

// avoidedArcs returns g's arcs on the segments a's hiking limit and steps
// close, made once per pair and router (a pass over every segment) and
// kept, as excludedArcs is.
func (r *Router) avoidedArcs(a Avoid) []uint32 {
	if a.MaxHiking == 0 && !a.Steps || int(a.MaxHiking) > len(HikingNames) {
		return nil
	}
	slot := &r.avoided[a.MaxHiking][b2i(a.Steps)]
	if arcs := slot.Load(); arcs != nil {
		return *arcs
	}
	net := r.g.Net
	arcs := []uint32{}
	for s := range uint32(net.NumSegments()) {
		hard := a.MaxHiking > 0 && net.SegHiking != nil && net.SegHiking[s] > a.MaxHiking
		if hard || a.Steps && net.Class(s) == "steps" {
			arcs = r.appendArcs(arcs, s)
		}
	}
	slot.Store(&arcs)
	return arcs
}

// areaArcs returns g's arcs on the segments that enter a polygon of area:
// the pieces in each polygon's box (the snapping index's R-tree finds
// them), each tested against the polygon's banded edges.
func (r *Router) areaArcs(area *geo.Area) []uint32 {
	if area == nil {
		return nil
	}
	net := r.g.Net
	closed := map[uint32]bool{}
	for i := range area.Polygons() {
		b := area.PolygonBounds(i)
		r.finder.Index().Within(b.MinLon, b.MinLat, b.MaxLon, b.MaxLat, func(seg, piece uint32) {
			if closed[seg] {
				return
			}
			aLon, aLat := net.Point(piece)
			bLon, bLat := net.Point(piece + 1)
			if area.Touches(i, aLon, aLat, bLon, bLat) {
				closed[seg] = true
			}
		})
	}
	var arcs []uint32
	for s := range closed {
		arcs = r.appendArcs(arcs, s)
	}
	return arcs
}

// appendArcs appends the profile's arcs on segment s, either way.
func (r *Router) appendArcs(arcs []uint32, s uint32) []uint32 {
	for _, rev := range [2]bool{false, true} {
		if a := r.g.ArcOf[graph.SegRef(s, rev)]; a != graph.NoArc {
			arcs = append(arcs, a)
		}
	}
	return arcs
}

// closedArcs is every arc x, v (nil for none) and a close: a request's
// exclusions, vehicle and avoid options at once close the union of their
// arcs (an arc closed twice is closed once).
func (r *Router) closedArcs(x Exclude, v *vehicleClosing, a Avoid) []uint32 {
	ex, av, ar := r.excludedArcs(x), r.avoidedArcs(a), r.areaArcs(a.Areas)
	var va []uint32
	if v != nil {
		va = v.arcs
	}
	if len(va) == 0 && len(av) == 0 && len(ar) == 0 {
		return ex
	}
	return slices.Concat(ex, va, av, ar)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
