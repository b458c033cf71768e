package main

import (
	"testing"

	"github.com/mapsco/maps/pkg/osm"
	"github.com/mapsco/maps/pkg/profile"
)

// monacoIndex is a piece of Monaco's map as the index holds it: the end of the path Chemin des Salines
// (w167014929), whose last nodes zigzag (two pieces 0.6 m apart), and the Boulevard du Jardin Exotique it meets.
func monacoIndex() *index {
	ix := &index{ways: map[int64]*osm.Way{}, pos: map[int64][2]float64{}, byPos: map[[2]int32]int64{},
		pairWay: map[[2]int64]int64{}, links: map[int64][]link{}, stopNode: map[int64]bool{}}
	nodes := map[int64][2]float64{
		1784106881: {7.413428, 43.731471}, 1784106885: {7.413383, 43.731478}, // at polyline6's precision
		1784106883: {7.413445, 43.731476}, 1784106882: {7.41356, 43.731464},
		9: {7.4137, 43.7316}, 10: {7.4139, 43.7318}, // made up: the boulevard's next node, a track on from it
	}
	for id, p := range nodes {
		ix.pos[id], ix.byPos[key6(p[0], p[1])] = p, id
	}
	way := func(id int64, tags map[string]string, ids ...int64) {
		ix.ways[id] = &osm.Way{ID: id, Tags: tags, NodeIDs: ids}
		for i := 1; i < len(ids); i++ {
			a, b := ids[i-1], ids[i]
			ix.pairWay[[2]int64{min(a, b), max(a, b)}] = id
			ix.links[a], ix.links[b] = append(ix.links[a], link{b, id}), append(ix.links[b], link{a, id})
		}
	}
	way(167014929, map[string]string{"highway": "path"}, 1784106881, 1784106885, 1784106883, 1784106882)
	way(181479772, map[string]string{"highway": "primary"}, 1784106882, 9)
	way(1, map[string]string{"highway": "track"}, 9, 10)
	return ix
}

func model(t *testing.T, name string) travelModel {
	p, err := profile.Load("../../profiles/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return ourModel(p)
}

func TestZigzagIsNoUTurn(t *testing.T) {
	ix := monacoIndex()
	// The route of the issue 36 item 8 run that read as a U-turn before the node check: along the path from
	// the boulevard, through the zigzag.
	pts := [][2]float64{ix.pos[9], ix.pos[1784106882], ix.pos[1784106883], ix.pos[1784106885], ix.pos[1784106881]}
	if u := ix.uTurnsOf(pts, model(t, "pedestrian")); len(u) != 0 {
		t.Errorf("the zigzag reads as %d U-turn(s): %+v", len(u), u)
	}
}

func TestUTurnPlaces(t *testing.T) {
	ix := monacoIndex()
	p := ix.pos
	foot, car := model(t, "pedestrian"), model(t, "car")
	for _, c := range []struct {
		name  string
		pts   [][2]float64
		model travelModel
		want  string
	}{
		// Back at the path's last node: a dead end.
		{"dead end", [][2]float64{p[1784106882], p[1784106883], p[1784106885], p[1784106881], p[1784106885], p[1784106883]}, foot, atDeadEnd},
		// Back at a node inside the path, which goes on: in the road.
		{"in the road", [][2]float64{p[9], p[1784106882], p[1784106883], p[1784106882], p[9]}, foot, inTheRoad},
		// The path is no road for a car: the boulevard's end is a dead end for it.
		{"dead end for a car", [][2]float64{p[9], p[1784106882], p[9]}, car, atDeadEnd},
		// For a walker the path goes on there: two roads meet.
		{"two roads for a walker", [][2]float64{p[9], p[1784106882], p[9]}, foot, inTheRoad},
		// A plain track goes on from the boulevard: our car may drive it, car.lua may not.
		{"track on, our car", [][2]float64{p[1784106882], p[9], p[1784106882]}, car, inTheRoad},
		{"track on, OSRM's car", [][2]float64{p[1784106882], p[9], p[1784106882]}, osrmCarModel, atDeadEnd},
		// Turning round at the node 1.9 m after a start placed on the path's last segment.
		{"beside the waypoint", [][2]float64{along(p[1784106882], p[1784106883], 0.2), p[1784106882], p[1784106883]}, foot, besideWaypt},
	} {
		got := ix.uTurnsOf(c.pts, c.model)
		if len(got) != 1 || got[0].Place != c.want {
			t.Errorf("%s: %+v, want one %q", c.name, got, c.want)
		}
	}
}

func TestEndHeadingsReadTheSegment(t *testing.T) {
	ix := monacoIndex()
	a, b := ix.pos[1784106883], ix.pos[1784106882]
	want := heading(a, b)
	// An end 0.3 m before node 1784106882 on the segment from 1784106883: its own piece is too short for a
	// heading at polyline6's precision; the segment's heading is read instead, leaving and arriving.
	end := along(b, a, 0.03)
	leave, _, ok := ix.endHeadings([][2]float64{end, b, ix.pos[9]})
	if !ok || angleDiff(leave, want) > 0.5 {
		t.Errorf("leaving heading %.1f, want the segment's %.1f", leave, want)
	}
	_, reach, ok := ix.endHeadings([][2]float64{ix.pos[1784106885], a, end})
	if !ok || angleDiff(reach, want) > 0.5 {
		t.Errorf("arriving heading %.1f, want the segment's %.1f", reach, want)
	}
	// Arriving 0.1 m past node 1784106882 on the boulevard (a Monaco answer of the first run read it as
	// arriving the other way, along the path behind the node).
	past := along(b, ix.pos[9], 0.005)
	_, reach, ok = ix.endHeadings([][2]float64{a, b, past})
	if want := heading(b, ix.pos[9]); !ok || angleDiff(reach, want) > 0.5 {
		t.Errorf("arriving just past a node: heading %.1f, want the next segment's %.1f", reach, want)
	}
}

// along is the point a fraction f of the way from a to b, rounded as polyline6 rounds it.
func along(a, b [2]float64, f float64) [2]float64 {
	k := key6(a[0]+(b[0]-a[0])*f, a[1]+(b[1]-a[1])*f)
	return [2]float64{float64(k[0]) / 1e6, float64(k[1]) / 1e6}
}
