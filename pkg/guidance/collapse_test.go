package guidance

import "testing"

// TestRoadSame: one road as a driver reads the signs.
func TestRoadSame(t *testing.T) {
	envalira, envaliraRef := road{"Port d'Envalira", "", "primary"}, road{"Port d'Envalira", "CG-2", "primary"}
	cases := []struct {
		a, b road
		want bool
	}{
		{envalira, envaliraRef, true},                    // a section without its ref
		{road{"", "CG-2", "primary"}, envaliraRef, true}, // a section without its name
		{road{"carrer Prat de la Creu", "", "residential"}, road{"Carrer Prat de la Creu", "", "residential"}, true}, // case
		{road{"Avinguda de Salou", "CG-1", "primary"}, road{"Avinguda de Tarragona", "CG-1", "primary"}, false},      // renamed
		{road{"", "CG-2", "primary"}, road{"", "CG-2a", "primary"}, false},
		{road{"", "", "residential"}, road{"", "", "residential"}, true},
		{road{"", "", "residential"}, road{"", "", "service"}, false},
		{road{"Carrer Major", "", "residential"}, road{"", "", "residential"}, false}, // a named road and a stub
	}
	for _, c := range cases {
		if got := c.a.same(c.b); got != c.want {
			t.Errorf("%+v same as %+v: %v, want %v", c.a, c.b, got, c.want)
		}
		if got := c.b.same(c.a); got != c.want {
			t.Errorf("%+v same as %+v: %v, want %v (not symmetric)", c.b, c.a, got, c.want)
		}
	}
	if r := cleanRoad("Avinguda de Joan Martí", "FIXME", "primary"); r.ref != "" || r.label(classPhrase) != "Avinguda de Joan Martí" {
		t.Errorf("FIXME read as a ref: %+v", r)
	}
}

// TestFoldSameRoad: the three repetitions the issue found fold into the
// step before, which keeps the fuller label, and what changes road stays.
func TestFoldSameRoad(t *testing.T) {
	step := func(m, mod string, r road, d float64) Step {
		s := Step{Maneuver: m, Modifier: mod, DistanceM: d, DurationS: d / 10}
		s.setRoad(r)
		return s
	}
	vilars, vilarsRef := road{"Carretera dels Vilars", "", "secondary"}, road{"Carretera dels Vilars", "CS-300", "secondary"}
	envalira, envaliraRef := road{"Port d'Envalira", "", "primary"}, road{"Port d'Envalira", "CG-2", "primary"}
	arrive := Step{Maneuver: Arrive}
	cases := []struct {
		name  string
		steps []Step
		want  []string
	}{
		{"turn then continue on the same road without its ref",
			[]Step{step(Depart, "", road{"", "", "residential"}, 100), step(Turn, "right", envaliraRef, 500), step(Continue, "straight", envalira, 26), arrive},
			[]string{"Head east on the street", "Turn right onto Port d'Envalira (CG-2)", "You have arrived at your destination"}},
		{"roundabout exit then continue on the same road with its ref",
			[]Step{step(Depart, "", road{"", "", "residential"}, 100), {Maneuver: Roundabout, Exit: 1, RoadName: vilars.name, RoadClass: vilars.class, DistanceM: 80}, step(Continue, "straight", vilarsRef, 900), arrive},
			[]string{"Head east on the street", "At the roundabout, take the 1st exit onto Carretera dels Vilars (CS-300)", "You have arrived at your destination"}},
		{"depart then continue on the same road without its ref",
			[]Step{step(Depart, "", envaliraRef, 300), step(Continue, "straight", envalira, 50), arrive},
			[]string{"Head east on Port d'Envalira (CG-2)", "You have arrived at your destination"}},
		{"a real turn that stays on the road",
			[]Step{step(Depart, "", envaliraRef, 300), step(Turn, "left", envalira, 400), arrive},
			[]string{"Head east on Port d'Envalira (CG-2)", "Turn left to stay on Port d'Envalira", "You have arrived at your destination"}},
		{"a fork that stays on the road",
			[]Step{step(Depart, "", road{"", "CG-2", "primary"}, 300), step(Fork, "left", road{"", "CG-2", "primary"}, 400), arrive},
			[]string{"Head east on CG-2", "Keep left to stay on CG-2", "You have arrived at your destination"}},
		{"a renamed road",
			[]Step{step(Depart, "", road{"Avinguda de Salou", "CG-1", "primary"}, 300), step(Continue, "straight", road{"Avinguda de Tarragona", "CG-1", "primary"}, 400), arrive},
			[]string{"Head east on Avinguda de Salou (CG-1)", "Continue onto Avinguda de Tarragona (CG-1)", "You have arrived at your destination"}},
	}
	for _, c := range cases {
		var total float64
		for _, s := range c.steps {
			total += s.DistanceM
		}
		steps := foldSameRoad(c.steps)
		var got []string
		var sum float64
		for i := range steps {
			stay := i > 0 && steps[i].road().named() && steps[i].road().same(steps[i-1].road())
			got = append(got, english{}.describe(&steps[i], stay))
			sum += steps[i].DistanceM
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: step %d %q, want %q", c.name, i+1, got[i], c.want[i])
			}
		}
		if sum != total {
			t.Errorf("%s: steps add up to %.0f m, were %.0f m", c.name, sum, total)
		}
	}
}
