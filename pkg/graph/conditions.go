package graph

import (
	"fmt"
	bits64 "math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/timecond"
)

// Conditions are a profile's time-dependent arcs and turns, from OSM
// conditional tags (access:conditional, oneway:conditional,
// maxspeed:conditional, ...) and conditional turn restrictions.
//
// Each is governed by k ≤ MaxRules rules, each rule a schedule of the
// network's Schedules; the rules in force at a time, read as bits (rule i is
// bit i), give the state, 0 to 2^k−1. A record in Data is k, the k schedule
// ids, then for an arc its 2^k travel times (NoWay where closed) and for a
// turn one word: the bit mask of the states in which the turn is forbidden
// (low 16 bits) and of those in which it enters a destination-only way and
// costs DestinationPenalty more (high 16 bits, destination.go).
//
// The graph's own arrays hold every arc and turn that is usable in some
// state, each arc at its fastest time of any state; State gives the times
// and turns of one instant, and searches apply it.
type Conditions struct {
	Arcs  []uint32 // conditional arcs, ascending
	ArcAt []uint32 // per conditional arc: offset of its record in Data
	Turns []uint32 // triples (from arc, to arc, offset of its record), ascending
	Data  []uint32
}

// MaxRules bounds the rules of one conditional way or restriction, so that
// a record's states fit a uint16 mask.
const MaxRules = 4

// Empty reports whether the profile has no time-dependent arc or turn.
func (c *Conditions) Empty() bool { return len(c.Arcs) == 0 && len(c.Turns) == 0 }

// record returns the schedule ids and payload of the record at off.
func (c *Conditions) record(off uint32) (schedules, payload []uint32) {
	k := c.Data[off]
	return c.Data[off+1 : off+1+k], c.Data[off+1+k:]
}

// State is what a profile's conditions say at one instant. A nil *State
// means the graph has no conditions: every method then returns the graph's
// own values. A State is read-only and safe for concurrent use.
type State struct {
	g *Graph
	// times is per marked arc, by its rank among them (Graph.markRank):
	// a conditional arc's travel time now, another marked arc's own time.
	// Indexing by rank makes a relaxation's look-up O(1): a binary search
	// of Cond.Arcs per edge into the core was over half of a table's CPU
	// on the 3M synthetic country (docs/benchmarks-history.md).
	times []uint32
	// extra is per marked arc, by rank, what its time now adds to its
	// fastest (the graph's own), NoWay where it is closed: Edge adds it
	// without reading the arc's own time from the graph's arrays.
	extra     []uint32
	banned    []uint64 // from<<32 | to of the turns forbidden now, ascending
	penalised []uint64 // from<<32 | to of the turns entering a destination-only way now, ascending
	ov        *Overlay // road operations in force on top, nil for none (overlay.go)

	mainOnce sync.Once
	main     []bool // per segment: on the largest component now (MainSegments)
}

// MainSegments returns, per segment, whether it has an arc on the largest
// strongly connected component of the turn graph under s: Graph.Big for the
// roads open now. It is computed on first use and kept with s (one Tarjan
// pass over the turn graph, then one bool per segment), for the rare
// request whose waypoint sits on a road no path leaves or reaches at that
// time (route.RouteThrough); nil for a nil s, where Big holds.
func (s *State) MainSegments() []bool {
	if s == nil {
		return nil
	}
	s.mainOnce.Do(func() {
		g := s.g
		comp := largestComponentOf(&g.Turns, func(v, e uint32) bool {
			to, w, _ := g.Turn(e)
			return s.ArcTime(g, v) != NoWay && s.Edge(v, to, w, true) != NoWay
		})
		s.main = make([]bool, g.Net.NumSegments())
		for a, in := range comp {
			if in {
				seg, _ := g.ArcSegment(uint32(a))
				s.main[seg] = true
			}
		}
	})
	return s.main
}

// StateAt evaluates g's conditions at t, in the network's time zone. It
// returns nil when g has none. Schedules resolve to the minute, so the
// last minute's state is kept and shared: most requests depart "now".
func (g *Graph) StateAt(t time.Time) *State {
	if g.Cond.Empty() {
		return nil
	}
	minute := t.Unix() / 60
	if t.Unix() < 0 && t.Unix()%60 != 0 {
		minute-- // floor, for times before 1970
	}
	if last := g.lastState.Load(); last != nil && last.minute == minute {
		return last.state
	}
	st := g.evaluate(t)
	g.lastState.Store(&minuteState{minute: minute, state: st})
	return st
}

// minuteState is a State and the minute (Unix time / 60) it holds for.
type minuteState struct {
	minute int64
	state  *State
}

// evaluate computes the State at t.
func (g *Graph) evaluate(t time.Time) *State {
	c := &g.Cond
	local := t.In(g.Net.Zone)
	active := make([]bool, len(g.Net.Schedules))
	for i := range g.Net.Schedules {
		active[i] = g.Net.Schedules[i].Active(local)
	}
	st := &State{g: g, times: make([]uint32, g.markCount())}
	for w, bits := range g.condMark {
		for ; bits != 0; bits &= bits - 1 {
			a := uint32(w)<<6 | uint32(bits64.TrailingZeros64(bits))
			st.times[g.markRank(a)] = g.ArcTime(a)
		}
	}
	st.extra = make([]uint32, len(st.times))
	for i, off := range c.ArcAt {
		sched, times := c.record(off)
		r := g.markRank(c.Arcs[i])
		st.times[r] = times[stateOf(sched, active)]
		if st.extra[r] = NoWay; st.times[r] != NoWay {
			st.extra[r] = st.times[r] - g.ArcTime(c.Arcs[i])
		}
	}
	for i := 0; i < len(c.Turns); i += 3 {
		sched, mask := c.record(c.Turns[i+2])
		state := stateOf(sched, active)
		turn := uint64(c.Turns[i])<<32 | uint64(c.Turns[i+1])
		if mask[0]>>state&1 != 0 {
			st.banned = append(st.banned, turn)
		}
		if mask[0]>>16>>state&1 != 0 {
			st.penalised = append(st.penalised, turn)
		}
	}
	return st
}

func stateOf(schedules []uint32, active []bool) uint32 {
	var s uint32
	for i, id := range schedules {
		if active[id] {
			s |= 1 << i
		}
	}
	return s
}

// Marked reports whether arc a is conditional or ends a conditional turn:
// the arcs a contraction must leave uncontracted.
func (g *Graph) Marked(a uint32) bool {
	return g.condMark != nil && g.condMark[a>>6]>>(a&63)&1 != 0
}

// MarkedSet returns the bit set Marked reads (bit a%64 of word a/64 is
// arc a's), nil when g has no conditions. The caller must not change it.
func (g *Graph) MarkedSet() []uint64 { return g.condMark }

// markRank returns the number of marked arcs below a, a marked arc: its
// index in State.times. condRank holds that count at each word's start.
func (g *Graph) markRank(a uint32) uint32 {
	w := a >> 6
	return g.condRank[w] + uint32(bits64.OnesCount64(g.condMark[w]&(1<<(a&63)-1)))
}

// markCount returns the number of marked arcs.
func (g *Graph) markCount() int {
	if len(g.condMark) == 0 {
		return 0
	}
	last := len(g.condMark) - 1
	return int(g.condRank[last]) + bits64.OnesCount64(g.condMark[last])
}

// markConditions derives the bit set Marked reads from Cond, and its rank
// index: a popcount per 64 arcs, 4 bytes per 64 arcs, derived in one pass
// over the set rather than over the graph.
func (g *Graph) markConditions() {
	if g.Cond.Empty() {
		g.condMark, g.condRank, g.lastState = nil, nil, nil
		return
	}
	defer g.rankMarks()
	g.lastState = new(atomic.Pointer[minuteState])
	g.condMark = make([]uint64, (len(g.Fwd.Edges)/3+63)/64)
	mark := func(a uint32) { g.condMark[a>>6] |= 1 << (a & 63) }
	for _, a := range g.Cond.Arcs {
		mark(a)
	}
	for i := 0; i < len(g.Cond.Turns); i += 3 {
		mark(g.Cond.Turns[i])
		mark(g.Cond.Turns[i+1])
	}
}

func (g *Graph) rankMarks() {
	g.condRank = make([]uint32, len(g.condMark))
	n := uint32(0)
	for w, bits := range g.condMark {
		g.condRank[w] = n
		n += uint32(bits64.OnesCount64(bits))
	}
}

// Same reports whether s and o say the same of every arc and turn (both
// nil, or states of the same graph with equal times and banned turns):
// a result computed under one holds under the other.
func (s *State) Same(o *State) bool {
	if s == nil || o == nil {
		return s == o
	}
	return s.g == o.g && s.ov.same(o.ov) && slices.Equal(s.times, o.times) && slices.Equal(s.banned, o.banned) &&
		slices.Equal(s.penalised, o.penalised)
}

// ArcTime returns arc a of g's travel time now, NoWay when it is closed;
// s is g's state or nil.
func (s *State) ArcTime(g *Graph, a uint32) uint32 {
	t := g.ArcTime(a)
	if s == nil {
		return t
	}
	if g.Marked(a) {
		t = s.times[g.markRank(a)]
	}
	if s.ov.Has(a) && t != NoWay {
		x := s.ov.Extra(a)
		if x == NoWay {
			return NoWay
		}
		t = add32(t, x)
	}
	return t
}

// Edge returns the weight now of an edge from tail to head whose stored
// weight w ends with head's fastest travel time (a turn of the graph, or a
// shortcut of a hierarchy built on it); original is true for a turn, which
// a restriction may forbid. NoWay means the edge may not be used now.
func (s *State) Edge(tail, head, w uint32, original bool) uint32 {
	if s.Fixed(head) {
		return w
	}
	if s.g.Marked(head) {
		if original && s.g.Marked(tail) {
			if s.isBanned(tail, head) {
				return NoWay
			}
			if s.isPenalised(tail, head) {
				w = add32(w, DestinationPenalty)
			}
		}
		x := s.extra[s.g.markRank(head)]
		if x == NoWay {
			return NoWay
		}
		w = add32(w, x)
	}
	if s.ov.Has(head) {
		x := s.ov.Extra(head)
		if x == NoWay {
			return NoWay
		}
		w = add32(w, x)
	}
	return w
}

// Marks reports whether set is the set of arcs s marks (Graph.MarkedSet),
// which a hierarchy's core is (ch.Hierarchy.SetCore); any set for a nil s.
func (s *State) Marks(set []uint64) bool {
	if s == nil {
		return true
	}
	m := s.g.condMark
	return len(m) == len(set) && (len(m) == 0 || &m[0] == &set[0] || slices.Equal(m, set))
}

// Fixed reports whether every edge into head weighs what the graph says
// under s (head is not marked, or s is nil); it inlines, so that a search
// calls Edge only for the few edges into marked arcs.
func (s *State) Fixed(head uint32) bool {
	return s == nil || (!s.g.Marked(head) && !s.ov.Has(head))
}

func (s *State) isBanned(from, to uint32) bool {
	_, ok := slices.BinarySearch(s.banned, uint64(from)<<32|uint64(to))
	return ok
}

func (s *State) isPenalised(from, to uint32) bool {
	if len(s.penalised) == 0 {
		return false
	}
	_, ok := slices.BinarySearch(s.penalised, uint64(from)<<32|uint64(to))
	return ok
}

// parseSchedules parses a network's schedule texts.
func parseSchedules(texts []string) ([]timecond.Schedule, error) {
	out := make([]timecond.Schedule, len(texts))
	for i, t := range texts {
		s, err := timecond.Parse(t)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// loadConditions parses the schedules and time zone a network was written
// with.
func (n *Network) loadConditions(schedules, zone string) error {
	var texts []string
	if schedules != "" {
		texts = strings.Split(schedules, "\n")
	}
	var err error
	if n.Schedules, err = parseSchedules(texts); err != nil {
		return fmt.Errorf("graph: %w: %w", artifact.ErrCorrupt, err)
	}
	if n.Zone, err = time.LoadLocation(zone); err != nil {
		return fmt.Errorf("graph: time zone %q: %w", zone, err)
	}
	return nil
}

func scheduleTexts(n *Network) string {
	texts := make([]string, len(n.Schedules))
	for i, s := range n.Schedules {
		texts[i] = s.String()
	}
	return strings.Join(texts, "\n")
}

func zoneName(n *Network) string {
	if n.Zone == nil {
		return "UTC"
	}
	return n.Zone.String()
}

// check verifies that every record lies inside Data and names known
// schedules, so that a damaged file cannot make StateAt index out of range.
func (c *Conditions) check(arcs, schedules int) error {
	bad := func(what string) error { return fmt.Errorf("%w: conditions: %s", artifact.ErrCorrupt, what) }
	if len(c.ArcAt) != len(c.Arcs) || len(c.Turns)%3 != 0 {
		return bad("array lengths disagree")
	}
	record := func(off uint32, payload int) error {
		if int(off) >= len(c.Data) || c.Data[off] > MaxRules {
			return bad("record out of range")
		}
		k := int(c.Data[off])
		if payload < 0 {
			payload = 1 << k
		}
		if int(off)+1+k+payload > len(c.Data) {
			return bad("record out of range")
		}
		for _, id := range c.Data[off+1 : int(off)+1+k] {
			if int(id) >= schedules {
				return bad("unknown schedule")
			}
		}
		return nil
	}
	for i, a := range c.Arcs {
		if int(a) >= arcs || i > 0 && c.Arcs[i-1] >= a {
			return bad("arcs out of range or order")
		}
		if err := record(c.ArcAt[i], -1); err != nil {
			return err
		}
	}
	for i := 0; i < len(c.Turns); i += 3 {
		if int(c.Turns[i]) >= arcs || int(c.Turns[i+1]) >= arcs {
			return bad("turn out of range")
		}
		if err := record(c.Turns[i+2], 1); err != nil {
			return err
		}
	}
	return nil
}

// Turn is Edge without what head's own time adds now, and without the
// overlay: w, NoWay where a restriction forbids the turn now, w plus
// DestinationPenalty where it enters a destination-only way now. A
// hierarchy weighs its variable shortcuts with it (ch.Hierarchy's vary
// table), adding the middle's time by Extra.
func (s *State) Turn(tail, head, w uint32, original bool) uint32 {
	if s == nil || !original || !s.g.Marked(head) || !s.g.Marked(tail) {
		return w
	}
	if s.isBanned(tail, head) {
		return NoWay
	}
	if s.isPenalised(tail, head) {
		w = add32(w, DestinationPenalty)
	}
	return w
}

// Extra returns what arc a's time now adds to its fastest under s's
// conditions (the overlay left out), NoWay where it is closed now; 0 for
// an arc no condition marks, or a nil s.
func (s *State) Extra(a uint32) uint32 {
	if s == nil || !s.g.Marked(a) {
		return 0
	}
	return s.extra[s.g.markRank(a)]
}

// HasConditionalTurn reports whether some state forbids or penalises the
// turn from arc from to arc to: whether a conditional restriction or a
// destination-only entry names it (Cond.Turns).
func (g *Graph) HasConditionalTurn(from, to uint32) bool {
	t := g.Cond.Turns
	i := sort.Search(len(t)/3, func(i int) bool {
		return t[3*i] > from || t[3*i] == from && t[3*i+1] >= to
	})
	return 3*i < len(t) && t[3*i] == from && t[3*i+1] == to
}
