package main

import "github.com/mapsco/maps/pkg/profile"

// travelModel says whether a traveller may go along a way (forward: in its node order). A U-turn's place
// (no other way out, two roads meeting, a junction) is read with the model of the engine and profile whose
// route it is: our profiles' own way rules for mapd, osrmSpeed (car.lua as approximated here) for OSRM's car.
// OSRM's bicycle.lua and foot.lua are read with our bicycle and pedestrian rules, which differ in details
// (docs/osrm-agreement.md says where that matters).
type travelModel func(tags map[string]string, forward bool) bool

func ourModel(p *profile.Profile) travelModel {
	return func(t map[string]string, forward bool) bool {
		w := p.Way(t)
		if forward {
			return w.Forward
		}
		return w.Backward
	}
}

func osrmCarModel(t map[string]string, forward bool) bool { return osrmSpeed(t, forward) > 0 }

// groupSeg is one highway segment, kept until the nodes are read.
type groupSeg struct {
	a, b int64
	way  int64
}

// link is one segment leaving a node.
type link struct {
	to, way int64
}

// roadsAt counts, at node id reached from node from (0: from a point on a segment no node begins), the
// roads the model may use that meet there, and the ways on it may leave by other than turning back.
func (ix *index) roadsAt(m travelModel, id, from int64) (roads, out int) {
	for _, l := range ix.links[id] {
		w := ix.ways[l.way]
		fwd := alongWay(w.NodeIDs, id, l.to)
		leave, enter := m(w.Tags, fwd), m(w.Tags, !fwd)
		if !leave && !enter {
			continue
		}
		roads++
		if l.to != from && leave {
			out++
		}
	}
	return roads, out
}
