package main

import "slices"

// groupClasses are the OSM highway values counted as roads at a node for each kind of traveller, so that a
// U-turn's place (a dead end, two roads meeting, a junction) is read alike for both engines' routes. They
// follow the profiles roughly: motor vehicles (car, truck, moto; OSRM's car.lua), bicycles (bicycle.json,
// bicycle.lua) and walkers (pedestrian*.json, foot.lua).
var groupClasses = map[string][]string{
	"motor": append(slices.Clone(carClasses), "service", "track", "road"),
	"bicycle": append(notMotorway(), "service", "track", "road", "cycleway", "path", "bridleway", "footway", "pedestrian",
		"steps"),
	"foot": append(notMotorway(), "service", "track", "road", "cycleway", "path", "bridleway", "footway", "pedestrian",
		"steps", "corridor"),
}

// groupAccess are the access keys each group reads, most specific first, and groupDenied the values that
// close a way to it.
var groupAccess = map[string][]string{
	"motor":   {"motorcar", "motor_vehicle", "vehicle", "access"},
	"bicycle": {"bicycle", "vehicle", "access"},
	"foot":    {"foot", "access"},
}

var groupDenied = map[string]bool{"no": true, "private": true, "agricultural": true, "forestry": true, "emergency": true,
	"psv": true, "bus": true, "permit": true, "residents": true, "use_sidepath": true}

func notMotorway() []string {
	return slices.DeleteFunc(slices.Clone(carClasses), func(c string) bool { return c == "motorway" || c == "motorway_link" })
}

// profileGroup names the group of one of our profiles.
func profileGroup(profile string) string {
	switch profile {
	case "bicycle":
		return "bicycle"
	case "pedestrian", "pedestrian_loaded":
		return "foot"
	}
	return "motor"
}

// groupSeg is one highway segment, kept until the nodes are read.
type groupSeg struct {
	a, b int64
	way  int64
}

// usable says whether the group may use the way at all, in some direction.
func usable(group string, t map[string]string) bool {
	return slices.Contains(groupClasses[group], t["highway"]) && !groupDenied[firstOf(t, groupAccess[group]...)]
}

// mayTravel says whether the group may travel the way from node a to node b.
func (ix *index) mayTravel(group string, way, a, b int64) bool {
	w := ix.ways[way]
	if !usable(group, w.Tags) {
		return false
	}
	switch group {
	case "foot":
		return true
	case "bicycle":
		if w.Tags["oneway:bicycle"] == "no" {
			return true
		}
	}
	return onewayAllows(w.Tags, alongWay(w.NodeIDs, a, b))
}

// roadsAt counts, at node id reached from node from (0: from a point on a segment, found by its position),
// the roads of the group that meet there and the ways on it may leave by other than turning back.
func (ix *index) roadsAt(group string, id, from int64) (roads, out int) {
	for _, l := range ix.links[id] {
		if !usable(group, ix.ways[l.way].Tags) {
			continue
		}
		roads++
		if l.to != from && ix.mayTravel(group, l.way, id, l.to) {
			out++
		}
	}
	return roads, out
}

// link is one segment leaving a node.
type link struct {
	to, way int64
}
