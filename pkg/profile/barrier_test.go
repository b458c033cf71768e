package profile

import "testing"

func TestBarrier(t *testing.T) {
	ps := loadAll(t)
	// want lists, per profile in Names() order, whether the node blocks: moto, car, truck, bicycle, pedestrian,
	// pedestrian_loaded.
	cases := []struct {
		name string
		tags map[string]string
		want [6]bool
	}{
		{"no barrier", tags("highway", "crossing"), [6]bool{}},
		{"access=no without barrier is ignored", tags("access", "no", "amenity", "parking"), [6]bool{}},
		{"bollard", tags("barrier", "bollard"), [6]bool{true, true, true, false, false, false}},
		{"bollard motorcar=yes", tags("barrier", "bollard", "motorcar", "yes"), [6]bool{true, false, true, false, false, false}},
		{"bollard motorcycle=yes", tags("barrier", "bollard", "motorcycle", "yes"), [6]bool{false, true, true, false, false, false}},
		{"bollard access=yes", tags("barrier", "bollard", "access", "yes"), [6]bool{}},
		{"gate", tags("barrier", "gate"), [6]bool{}},
		{"gate access=private", tags("barrier", "gate", "access", "private"), [6]bool{true, true, true, true, true, true}},
		{"gate private, foot=yes", tags("barrier", "gate", "access", "private", "foot", "yes"), [6]bool{true, true, true, true, false, false}},
		{"lift_gate access=destination", tags("barrier", "lift_gate", "access", "destination"), [6]bool{}},
		{"cycle_barrier", tags("barrier", "cycle_barrier"), [6]bool{true, true, true, false, false, false}},
		{"motorcycle_barrier", tags("barrier", "motorcycle_barrier"), [6]bool{true, true, true, false, false, false}},
		{"kissing_gate", tags("barrier", "kissing_gate"), [6]bool{true, true, true, true, false, false}},
		{"fence", tags("barrier", "fence"), [6]bool{true, true, true, true, true, true}},
		{"fence foot=yes", tags("barrier", "fence", "foot", "yes"), [6]bool{true, true, true, true, false, false}},
		{"barrier=yes", tags("barrier", "yes"), [6]bool{true, true, true, true, true, true}},
		{"unknown barrier value", tags("barrier", "spaceship"), [6]bool{true, true, true, false, false, false}},
		{"barrier=no", tags("barrier", "no"), [6]bool{}},
		{"border control, foot=no", tags("barrier", "border_control", "foot", "no", "bicycle", "no", "motorcar", "yes"),
			[6]bool{false, false, false, true, true, true}},
		{"height_restrictor", tags("barrier", "height_restrictor"), [6]bool{false, false, true, false, false, false}},
		{"height_restrictor hgv=yes", tags("barrier", "height_restrictor", "hgv", "yes"), [6]bool{}},
		// The Envalira tunnel's approaches: the 4.0 m truck fits under 4.30 m (it was refused, issue 35).
		{"height_restrictor maxheight=4.30", tags("barrier", "height_restrictor", "maxheight", "4.30"), [6]bool{}},
		{"height_restrictor maxheight=4", tags("barrier", "height_restrictor", "maxheight", "4"), [6]bool{}},
		{"height_restrictor maxheight:physical=4.2 m", tags("barrier", "height_restrictor", "maxheight:physical", "4.2 m"), [6]bool{}},
		{"height_restrictor maxheight=3.5", tags("barrier", "height_restrictor", "maxheight", "3.5"), [6]bool{false, false, true, false, false, false}},
		{"height_restrictor maxheight=default", tags("barrier", "height_restrictor", "maxheight", "default"), [6]bool{false, false, true, false, false, false}},
		{"height_restrictor 4.5 but hgv=no", tags("barrier", "height_restrictor", "maxheight", "4.5", "hgv", "no"), [6]bool{false, false, true, false, false, false}},
		{"gate with maxheight below truck", tags("barrier", "gate", "maxheight", "3.2"), [6]bool{false, false, true, false, false, false}},
		{"lift_gate with maxheight above truck", tags("barrier", "lift_gate", "maxheight", "4.5"), [6]bool{}},
		{"gate bicycle=dismount", tags("barrier", "stile", "bicycle", "dismount"), [6]bool{true, true, true, false, false, false}},
	}
	for _, c := range cases {
		for i, name := range Names() {
			if got := ps[name].Barrier(c.tags); got != c.want[i] {
				t.Errorf("%s: %s.Barrier(%v) = %v, want %v", c.name, name, c.tags, got, c.want[i])
			}
		}
	}
}
