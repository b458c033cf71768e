package profile

import "testing"

// result is one profile's answer to Restriction.
type result struct {
	kind    string
	applies bool
}

func TestRestriction(t *testing.T) {
	ps := loadAll(t)
	yes := func(k string) result { return result{k, true} }
	no := func(k string) result { return result{k, false} }
	none := result{}
	// want is in Names() order: moto, car, truck, bicycle, pedestrian, pedestrian_loaded.
	cases := []struct {
		name string
		tags map[string]string
		want [6]result
	}{
		{"plain binds vehicles, not walkers", tags("type", "restriction", "restriction", "no_left_turn"),
			[6]result{yes("no_left_turn"), yes("no_left_turn"), yes("no_left_turn"), yes("no_left_turn"), none, none}},
		{"hgv only", tags("type", "restriction", "restriction:hgv", "no_right_turn"),
			[6]result{none, none, yes("no_right_turn"), none, none, none}},
		{"motor_vehicle", tags("type", "restriction", "restriction:motor_vehicle", "no_u_turn"),
			[6]result{yes("no_u_turn"), yes("no_u_turn"), yes("no_u_turn"), none, none, none}},
		{"vehicle includes bicycles", tags("type", "restriction", "restriction:vehicle", "no_entry"),
			[6]result{yes("no_entry"), yes("no_entry"), yes("no_entry"), yes("no_entry"), none, none}},
		{"motorcycle", tags("type", "restriction", "restriction:motorcycle", "only_right_turn"),
			[6]result{yes("only_right_turn"), none, none, none, none, none}},
		{"bicycle", tags("type", "restriction", "restriction:bicycle", "only_straight_on"),
			[6]result{none, none, none, yes("only_straight_on"), none, none}},
		{"foot", tags("type", "restriction", "restriction:foot", "no_straight_on"),
			[6]result{none, none, none, none, yes("no_straight_on"), yes("no_straight_on")}},
		{"mode-specific beats plain", tags("type", "restriction", "restriction", "no_left_turn", "restriction:hgv", "only_straight_on"),
			[6]result{yes("no_left_turn"), yes("no_left_turn"), yes("only_straight_on"), yes("no_left_turn"), none, none}},
		{"except bicycle", tags("type", "restriction", "restriction", "no_left_turn", "except", "bicycle"),
			[6]result{yes("no_left_turn"), yes("no_left_turn"), yes("no_left_turn"), no("no_left_turn"), none, none}},
		{"except list with spaces", tags("type", "restriction", "restriction", "no_u_turn", "except", "psv; motorcar ;hgv"),
			[6]result{yes("no_u_turn"), no("no_u_turn"), no("no_u_turn"), yes("no_u_turn"), none, none}},
		{"except psv does not free the moto taxi", tags("type", "restriction", "restriction", "no_left_turn", "except", "psv;taxi"),
			[6]result{yes("no_left_turn"), yes("no_left_turn"), yes("no_left_turn"), yes("no_left_turn"), none, none}},
		{"except vehicle", tags("type", "restriction", "restriction", "no_left_turn", "except", "vehicle"),
			[6]result{no("no_left_turn"), no("no_left_turn"), no("no_left_turn"), no("no_left_turn"), none, none}},
		{"conditional only", tags("type", "restriction", "restriction:conditional", "no_left_turn @ (Mo-Fr 07:00-09:00)"),
			[6]result{no("no_left_turn"), no("no_left_turn"), no("no_left_turn"), no("no_left_turn"), none, none}},
		{"plain with a conditional exception", tags("type", "restriction", "restriction", "no_right_turn", "restriction:conditional", "none @ (Sa,Su)"),
			[6]result{no("no_right_turn"), no("no_right_turn"), no("no_right_turn"), no("no_right_turn"), none, none}},
		{"hgv conditional leaves cars alone", tags("type", "restriction", "restriction", "no_left_turn", "restriction:hgv:conditional", "none @ (22:00-06:00)"),
			[6]result{yes("no_left_turn"), yes("no_left_turn"), no("no_left_turn"), yes("no_left_turn"), none, none}},
		{"day_on", tags("type", "restriction", "restriction", "no_left_turn", "day_on", "Monday", "day_off", "Friday"),
			[6]result{no("no_left_turn"), no("no_left_turn"), no("no_left_turn"), no("no_left_turn"), none, none}},
		{"legacy type=restriction:hgv", tags("type", "restriction:hgv", "restriction", "no_left_turn"),
			[6]result{none, none, yes("no_left_turn"), none, none, none}},
		{"not a restriction", tags("type", "multipolygon", "restriction", "no_left_turn"), [6]result{}},
		{"unknown kind", tags("type", "restriction", "restriction", "give_way"),
			[6]result{no("give_way"), no("give_way"), no("give_way"), no("give_way"), none, none}},
		{"empty", tags(), [6]result{}},
	}
	for _, c := range cases {
		for i, name := range Names() {
			kind, applies := ps[name].Restriction(c.tags)
			if got := (result{kind, applies}); got != c.want[i] {
				t.Errorf("%s: %s.Restriction(%v) = %+v, want %+v", c.name, name, c.tags, got, c.want[i])
			}
		}
	}
}
