package synth

import (
	"fmt"
	"slices"
)

// Connector indices into source.ends.
const (
	east = iota
	west
	north
	south
)

// connectClasses are the highway values a trunk road may join: roads every
// car profile uses, so cars can cross between tiles.
var connectClasses = []string{"trunk", "primary", "secondary", "tertiary", "unclassified", "residential"}

// networkClasses also carry the two-way network that connectors must belong
// to (links and living streets join the main roads together).
var networkClasses = []string{"trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
	"trunk_link", "primary_link", "secondary_link", "tertiary_link", "living_street"}

// findEnds picks the connectors: the easternmost, westernmost, northernmost
// and southernmost node on a connectClasses road in the largest network of
// two-way car roads. Restricting to two-way roads makes the network strongly
// connected, so a trunk road reaches every part of it in both directions;
// taking the largest avoids a fragment cut off by the extract's border.
func (s *source) findEnds() error {
	uf := newUnionFind(s.numNodes())
	for _, w := range s.ways {
		if !twoWayCar(w.tags, networkClasses) {
			continue
		}
		for i := 1; i < len(w.refs); i++ {
			a, b := w.refs[i-1], w.refs[i]
			if !s.isBarrier(a) && !s.isBarrier(b) {
				uf.union(a, b)
			}
		}
	}
	root := uf.largest()
	found := false
	for _, w := range s.ways {
		if !twoWayCar(w.tags, connectClasses) {
			continue
		}
		for _, v := range w.refs {
			if uf.find(v) != root || s.isBarrier(v) {
				continue
			}
			if !found {
				s.ends = [4]int32{v, v, v, v}
				found = true
			}
			s.consider(v)
		}
	}
	if !found {
		return fmt.Errorf("synth: %s has no two-way %v road to connect a trunk road to", s.path, connectClasses)
	}
	return nil
}

// consider makes v a connector where it lies farther out; ties go to the
// lower index so the choice does not depend on way order.
func (s *source) consider(v int32) {
	lon, lat := s.coord[2*v], s.coord[2*v+1]
	better := func(cur int32, val, curVal int32, bigger bool) bool {
		if val == curVal {
			return v < cur
		}
		return (val > curVal) == bigger
	}
	if e := s.ends[east]; better(e, lon, s.coord[2*e], true) {
		s.ends[east] = v
	}
	if w := s.ends[west]; better(w, lon, s.coord[2*w], false) {
		s.ends[west] = v
	}
	if n := s.ends[north]; better(n, lat, s.coord[2*n+1], true) {
		s.ends[north] = v
	}
	if so := s.ends[south]; better(so, lat, s.coord[2*so+1], false) {
		s.ends[south] = v
	}
}

func (s *source) isBarrier(v int32) bool {
	for _, t := range s.nodeTags[v] {
		if t.Key == "barrier" {
			return true
		}
	}
	return false
}

// twoWayCar reports whether a way of one of classes is open to cars in both
// directions, read conservatively from its tags.
func twoWayCar(tags []Tag, classes []string) bool {
	ok := false
	for _, t := range tags {
		switch t.Key {
		case "highway":
			ok = slices.Contains(classes, t.Value)
		case "oneway":
			if t.Value != "no" && t.Value != "false" && t.Value != "0" {
				return false
			}
		case "junction":
			if t.Value == "roundabout" || t.Value == "circular" {
				return false
			}
		case "access", "vehicle", "motor_vehicle", "motorcar":
			if slices.Contains([]string{"no", "private", "agricultural", "forestry", "delivery", "permit",
				"customers", "emergency", "destination"}, t.Value) {
				return false
			}
		case "area":
			if t.Value == "yes" {
				return false
			}
		}
	}
	return ok
}

// unionFind is a disjoint-set forest with path halving and union by size.
type unionFind struct{ parent, size []int32 }

func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]int32, n), size: make([]int32, n)}
	for i := range u.parent {
		u.parent[i], u.size[i] = int32(i), 1
	}
	return u
}

func (u *unionFind) find(v int32) int32 {
	for u.parent[v] != v {
		u.parent[v] = u.parent[u.parent[v]]
		v = u.parent[v]
	}
	return v
}

func (u *unionFind) union(a, b int32) {
	a, b = u.find(a), u.find(b)
	if a == b {
		return
	}
	if u.size[a] < u.size[b] || (u.size[a] == u.size[b] && b < a) {
		a, b = b, a
	}
	u.parent[b] = a
	u.size[a] += u.size[b]
}

// largest returns the root of the biggest set (lowest root on ties).
func (u *unionFind) largest() int32 {
	best := int32(-1)
	for v := range u.parent {
		r := u.find(int32(v))
		if best < 0 || u.size[r] > u.size[best] || (u.size[r] == u.size[best] && r < best) {
			best = r
		}
	}
	return best
}
