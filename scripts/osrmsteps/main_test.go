package main

import "testing"

// TestCompareMatchesLikes: at a small roundabout, our entry and OSRM's turn
// just before it lie metres apart; each point must meet its like (the
// roundabout OSRM places 20 m on), so that the exits are compared, not an
// exit with a turn.
func TestCompareMatchesLikes(t *testing.T) {
	const m = 1.0 / 111195 // a metre of latitude, in degrees
	ours := []point{
		{loc: [2]float64{1.5, 42.5}, dir: "roundabout", exit: 2, kind: "roundabout"},
	}
	theirs := []point{
		{loc: [2]float64{1.5, 42.5 + 5*m}, dir: "R", kind: "turn right"},
		{loc: [2]float64{1.5, 42.5 + 20*m}, dir: "roundabout", exit: 2, kind: "roundabout"},
	}
	why, _ := compare(ours, theirs, 30, 1000, 1000)
	if len(why) != 1 || why[0] != "OSRM only: turn right" {
		t.Fatalf("got %q, want only OSRM's turn left over", why)
	}
	if why, _ := compare(ours, theirs[:1], 30, 1000, 1000); len(why) != 1 || why[0] != "roundabout exit differs" {
		t.Fatalf("with no roundabout to meet: got %q, want the exit compared with the turn's", why)
	}
	if why, _ := compare(ours, theirs, 30, 1000, 1100); len(why) != 1 || why[0] != anotherRoute {
		t.Fatalf("lengths 10 %% apart: got %q", why)
	}
}

// TestSameRoads: two lines drawn along one road within a few metres are
// the same roads; a line that leaves it for 100 m is not.
func TestSameRoads(t *testing.T) {
	const m = 1.0 / 111195 // a metre of latitude, in degrees
	road := [][2]float64{{1.5, 42.5}, {1.5, 42.5 + 500*m}}
	beside := [][2]float64{{1.5 + 5*m, 42.5}, {1.5 + 5*m, 42.5 + 250*m}, {1.5, 42.5 + 500*m}}
	away := [][2]float64{{1.5, 42.5}, {1.5 + 100*m, 42.5 + 250*m}, {1.5, 42.5 + 500*m}}
	if !sameRoads(road, beside, 30) {
		t.Error("lines 5 m apart: not the same roads")
	}
	if sameRoads(road, away, 30) {
		t.Error("a line 100 m away halfway: the same roads")
	}
}
