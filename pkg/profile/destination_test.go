package profile

import "testing"

// TestWayDestination: the values that let a motor vehicle reach a place but
// not pass through (access, motor_vehicle, motorcar = destination, delivery,
// customers) mark the way Destination for car, truck and moto, as OSRM's
// car.lua lists them in restricted_access_tag_list; a more specific tag that
// opens the way lifts it, and walkers and cyclists are not bound.
func TestWayDestination(t *testing.T) {
	all := loadAll(t)
	for _, c := range []struct {
		profile string
		tags    map[string]string
		want    bool
	}{
		{"car", tags("highway", "residential", "access", "destination"), true},
		{"car", tags("highway", "residential", "motor_vehicle", "delivery"), true},
		{"car", tags("highway", "residential", "motorcar", "customers"), true},
		{"car", tags("highway", "residential", "access", "destination;delivery"), true},
		{"car", tags("highway", "residential", "access", "yes;destination"), false},
		{"car", tags("highway", "residential", "access", "destination", "motorcar", "yes"), false},
		{"car", tags("highway", "residential", "access", "no", "motor_vehicle", "destination"), true},
		{"car", tags("highway", "residential"), false},
		{"truck", tags("highway", "service", "access", "delivery"), true},
		{"moto", tags("highway", "residential", "access", "destination"), true},
		{"bicycle", tags("highway", "residential", "access", "destination"), false},
		{"pedestrian", tags("highway", "residential", "access", "destination"), false},
	} {
		w := all[c.profile].Way(c.tags)
		if !w.Forward || w.Destination != c.want {
			t.Errorf("%s %v: %+v, want usable with Destination %v", c.profile, c.tags, w, c.want)
		}
	}
	if all["car"].Barrier(tags("barrier", "gate", "motor_vehicle", "destination")) {
		t.Error("a gate open to cars going to a destination blocks the car")
	}
}
