package graph

import (
	"fmt"
	"math"

	"github.com/mapsco/maps/pkg/artifact"
)

// # Vehicle limits
//
// A profile with a vehicle (the truck) is compiled for its own vehicle: a
// way posted below it has no arc, a barrier posted below it blocks. What
// the compiled graph still holds are the limits that vehicle fits under,
// and those decide a request's larger vehicle at query time: per original
// arc, the tightest of its way's limits, of the barriers inside its
// segment and of a barrier at its head node (entering the barrier is what
// the vehicle cannot do). Most arcs have no limit, so they are kept as a
// sorted list of records (LimitRecords words each: arc, height | width<<16,
// length | weight<<16, axle load | flags<<16) in the profile's ".limits"
// section, read in place from the mapping. pkg/route closes the arcs a
// request's vehicle exceeds through the overlay exclusions use.

// Limits are posted limits in the units the graph stores them: centimetres
// and tens of kilograms, 0 for none. NoHazmat is hazmat=no.
type Limits struct {
	Height, Width, Length uint16 // cm
	Weight, AxleLoad      uint16 // 10 kg
	NoHazmat              bool
}

// Vehicle is a request's vehicle in the same units: 0 for a size it does
// not state (then no limit of that kind refuses it).
type Vehicle struct {
	Height, Width, Length uint16 // cm
	Weight, AxleLoad      uint16 // 10 kg
	Hazmat                bool   // carries dangerous goods
}

// Centimetres converts metres to the stored unit, rounded to the nearest;
// a positive size is at least 1 and at most 65,535 (655 m: no limit binds).
func Centimetres(m float64) uint16 { return stored(m * 100) }

// TensOfKilograms converts tonnes to the stored unit, rounded likewise.
func TensOfKilograms(t float64) uint16 { return stored(t * 100) }

func stored(v float64) uint16 {
	if !(v > 0) {
		return 0
	}
	return uint16(min(max(math.Round(v), 1), math.MaxUint16))
}

// Empty reports whether l limits nothing.
func (l Limits) Empty() bool { return l == Limits{} }

// Meet is the tighter of l and m in every kind.
func (l Limits) Meet(m Limits) Limits {
	tight := func(a, b uint16) uint16 {
		if a == 0 || (b != 0 && b < a) {
			return b
		}
		return a
	}
	return Limits{Height: tight(l.Height, m.Height), Width: tight(l.Width, m.Width), Length: tight(l.Length, m.Length),
		Weight: tight(l.Weight, m.Weight), AxleLoad: tight(l.AxleLoad, m.AxleLoad), NoHazmat: l.NoHazmat || m.NoHazmat}
}

// Refuses reports whether v exceeds a limit of l; equal passes.
func (l Limits) Refuses(v Vehicle) bool {
	over := func(limit, size uint16) bool { return limit != 0 && size > limit }
	return over(l.Height, v.Height) || over(l.Width, v.Width) || over(l.Length, v.Length) ||
		over(l.Weight, v.Weight) || over(l.AxleLoad, v.AxleLoad) || l.NoHazmat && v.Hazmat
}

// within drops the kinds of limit that refuse v: what a graph compiled for
// v keeps is only what v fits under (elements below it are out already).
func (l Limits) within(v Vehicle) Limits {
	keep := func(limit, size uint16) uint16 {
		if limit != 0 && size > limit {
			return 0
		}
		return limit
	}
	return Limits{Height: keep(l.Height, v.Height), Width: keep(l.Width, v.Width), Length: keep(l.Length, v.Length),
		Weight: keep(l.Weight, v.Weight), AxleLoad: keep(l.AxleLoad, v.AxleLoad), NoHazmat: l.NoHazmat && !v.Hazmat}
}

// LimitRecords is the number of uint32 words of one limit record.
const LimitRecords = 4

const flagNoHazmat = 1

func (l Limits) record(a uint32) [LimitRecords]uint32 {
	var f uint32
	if l.NoHazmat {
		f = flagNoHazmat
	}
	return [LimitRecords]uint32{a, uint32(l.Height) | uint32(l.Width)<<16, uint32(l.Length) | uint32(l.Weight)<<16,
		uint32(l.AxleLoad) | f<<16}
}

// NumLimited returns how many arcs have a limit (0 for a profile without
// a vehicle, or a file written before limits were kept).
func (g *Graph) NumLimited() int { return len(g.Limits) / LimitRecords }

// Limited returns record i: an arc and its limits, arcs ascending.
func (g *Graph) Limited(i int) (uint32, Limits) {
	r := g.Limits[LimitRecords*i : LimitRecords*i+LimitRecords : LimitRecords*i+LimitRecords]
	return r[0], Limits{Height: uint16(r[1]), Width: uint16(r[1] >> 16), Length: uint16(r[2]),
		Weight: uint16(r[2] >> 16), AxleLoad: uint16(r[3]), NoHazmat: (r[3]>>16)&flagNoHazmat != 0}
}

// ArcsRefusing returns the arcs whose limits v exceeds, ascending (nil
// for none).
func (g *Graph) ArcsRefusing(v Vehicle) []uint32 {
	var arcs []uint32
	for i := range g.NumLimited() {
		if a, l := g.Limited(i); l.Refuses(v) {
			arcs = append(arcs, a)
		}
	}
	return arcs
}

// buildLimits makes profile g's limit records for its vehicle v from the
// ways' limits, the barriers inside segments (segLim) and those at nodes.
func buildLimits(in Input, g *Graph, topo *topology, v Vehicle) []uint32 {
	atNode := map[uint32]Limits{}
	if in.NodeLimits != nil {
		for id, node := range topo.index {
			if l := in.NodeLimits(id); !l.Empty() {
				atNode[node] = l
			}
		}
	}
	var out []uint32
	originals := g.Fwd.First[g.Net.NumNodes()]
	for a := range originals {
		s, _ := g.ArcSegment(a)
		l := in.Ways[topo.segWay[s]].Limits.Meet(topo.segLim[s]).Meet(atNode[g.ArcHead(a)]).within(v)
		if !l.Empty() {
			r := l.record(a)
			out = append(out, r[:]...)
		}
	}
	return out
}

// limitsSection names a profile's limit records.
func limitsSection(name string) string { return name + ".limits" }

// checkLimits verifies the records are whole, ascending and name arcs.
func (g *Graph) checkLimits() error {
	if len(g.Limits)%LimitRecords != 0 {
		return fmt.Errorf("graph: %w: profile %s limits are %d words", artifact.ErrCorrupt, g.Profile, len(g.Limits))
	}
	for i := range g.NumLimited() {
		a, _ := g.Limited(i)
		if a >= g.NumArcs() || i > 0 && g.Limits[LimitRecords*(i-1)] >= a {
			return fmt.Errorf("graph: %w: profile %s limit record %d names arc %d out of order", artifact.ErrCorrupt, g.Profile, i, a)
		}
	}
	return nil
}
