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
