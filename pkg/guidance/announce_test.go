package guidance

import "testing"

// TestAnnounced is OSRM's name rule on roads of Andorra and Liechtenstein:
// what a driver is told is a new road, and what is the same one.
func TestAnnounced(t *testing.T) {
	for _, c := range []struct {
		from, to road
		want     bool
	}{
		{road{ref: "CG-1"}, road{name: "Carrer Francesc Carat", ref: "CG-1"}, false},                                    // gains a name, keeps its reference
		{road{name: "Avinguda el Travès", ref: "CG-3"}, road{ref: "CG-3"}, false},                                       // loses its name, keeps its reference
		{road{name: "carretera General 1", ref: "CG-1"}, road{name: "Carrer Francesc Carat", ref: "CG-1"}, true},        // another name under the same reference
		{road{name: "Carretera de Fontaneda", ref: "CS-140"}, road{name: "Carretera de Canòlich", ref: "CS-142"}, true}, // another road
		{road{name: "Steg"}, road{name: "Stegertunnel"}, false},                                                         // a name that only grows
		{road{name: "Carretera de la Rabassa", ref: "CS-131"}, road{class: "service"}, false},                           // onto an unnamed way: OSRM reads no new name
		{road{ref: "CG-2"}, road{ref: "CG-2a"}, false},                                                                  // one reference within the other
		{road{ref: "CS-130"}, road{ref: "CS-131"}, true},                                                                // unnamed roads, another reference
		{road{ref: "CG-4"}, road{name: "Avinguda del Ravell"}, true},                                                    // a reference onto a name
		{road{class: "track"}, road{name: "Camí de Calm Ramonet i Caborreu"}, true},                                     // from nothing onto a name
		{road{class: "track"}, road{class: "service"}, false},                                                           // nothing onto nothing
		{road{name: "carrer Prat de la Creu"}, road{name: "Carrer Prat de la Creu"}, true},                              // OSRM compares names as written
	} {
		if got := announced(c.from, c.to); got != c.want {
			t.Errorf("%+v onto %+v: announced %v, want %v", c.from, c.to, got, c.want)
		}
	}
}
