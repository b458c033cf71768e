package profile

import "testing"

type wayCase struct {
	name    string
	profile string
	tags    map[string]string
	want    Way
}

func runWayCases(t *testing.T, cases []wayCase) {
	t.Helper()
	ps := loadAll(t)
	for _, c := range cases {
		t.Run(c.profile+"/"+c.name, func(t *testing.T) {
			p := ps[c.profile]
			got := p.Way(c.tags)
			checkWayInvariant(t, c.profile, c.tags, got)
			if !sameWay(got, c.want) {
				t.Errorf("%s.Way(%v) = %+v, want %+v", c.profile, c.tags, got, c.want)
			}
		})
	}
}

func TestWayCar(t *testing.T) {
	runWayCases(t, []wayCase{
		{"residential", "car", tags("highway", "residential"), both(25)},
		{"no highway tag", "car", tags("building", "yes"), Way{}},
		{"unknown class", "car", tags("highway", "construction"), Way{}},
		{"footway", "car", tags("highway", "footway"), Way{}},
		{"path even with motorcar=yes", "car", tags("highway", "path", "motorcar", "yes"), Way{}},
		// access hierarchy: motorcar > motor_vehicle > vehicle > access
		{"access=private", "car", tags("highway", "residential", "access", "private"), Way{}},
		{"access=destination", "car", tags("highway", "residential", "access", "destination"), both(25)},
		{"access=customers", "car", tags("highway", "service", "access", "customers"), both(15)},
		{"motorcar=yes beats access=no", "car", tags("highway", "residential", "access", "no", "motorcar", "yes"), both(25)},
		{"motor_vehicle=no", "car", tags("highway", "track", "motor_vehicle", "no"), Way{}},
		{"vehicle=no", "car", tags("highway", "residential", "vehicle", "no"), Way{}},
		{"motorcar=no beats motor_vehicle=yes", "car", tags("highway", "residential", "motor_vehicle", "yes", "motorcar", "no"), Way{}},
		{"list of denying uses", "car", tags("highway", "track", "motor_vehicle", "agricultural;forestry"), Way{}},
		{"list with an allowing use", "car", tags("highway", "residential", "motor_vehicle", "destination; delivery"), both(25)},
		{"unknown value falls through", "car", tags("highway", "residential", "motorcar", "unknown", "access", "no"), Way{}},
		{"unknown value alone", "car", tags("highway", "residential", "access", "maybe"), both(25)},
		// oneway
		{"oneway=yes", "car", tags("highway", "residential", "oneway", "yes"), fwd(25)},
		{"oneway=1", "car", tags("highway", "residential", "oneway", "1"), fwd(25)},
		{"oneway=true", "car", tags("highway", "residential", "oneway", "true"), fwd(25)},
		{"oneway=-1", "car", tags("highway", "residential", "oneway", "-1"), bwd(25)},
		{"oneway=no", "car", tags("highway", "residential", "oneway", "no"), both(25)},
		{"oneway=reversible", "car", tags("highway", "primary", "oneway", "reversible"), Way{}},
		{"oneway=alternating", "car", tags("highway", "primary", "oneway", "alternating"), both(60)},
		{"oneway:motorcar beats oneway", "car", tags("highway", "residential", "oneway", "yes", "oneway:motorcar", "no"), both(25)},
		{"roundabout", "car", tags("highway", "primary", "junction", "roundabout"), fwd(60)},
		{"circular", "car", tags("highway", "tertiary", "junction", "circular"), fwd(40)},
		{"roundabout oneway=no", "car", tags("highway", "primary", "junction", "roundabout", "oneway", "no"), both(60)},
		{"motorway implies oneway", "car", tags("highway", "motorway"), fwd(100)},
		{"cycleway=opposite does not free cars", "car", tags("highway", "residential", "oneway", "yes", "cycleway", "opposite"), fwd(25)},
		// maxspeed: speed = min(class × factor, maxspeed × 0.9, 130)
		{"maxspeed below class", "car", tags("highway", "primary", "maxspeed", "50"), both(45)},
		{"maxspeed above class", "car", tags("highway", "primary", "maxspeed", "90"), both(60)},
		{"maxspeed mph", "car", tags("highway", "primary", "maxspeed", "30 mph"), both(30 * kmhPerMph * 0.9)},
		{"maxspeed none", "car", tags("highway", "primary", "maxspeed", "none"), both(60)},
		{"maxspeed signals", "car", tags("highway", "primary", "maxspeed", "signals"), both(60)},
		{"maxspeed garbage", "car", tags("highway", "primary", "maxspeed", "fast"), both(60)},
		{"maxspeed walk", "car", tags("highway", "residential", "maxspeed", "walk"), both(6 * 0.9)},
		{"maxspeed zone code", "car", tags("highway", "primary", "maxspeed", "AD:urban"), both(45)},
		{"maxspeed:type zone code", "car", tags("highway", "primary", "maxspeed:type", "AD:urban"), both(45)},
		{"explicit maxspeed beats zone", "car", tags("highway", "primary", "maxspeed", "40", "source:maxspeed", "AD:rural"), both(36)},
		{"maxspeed forward/backward", "car", tags("highway", "secondary", "maxspeed:forward", "40", "maxspeed:backward", "70"), split(36, 50)},
		{"maxspeed backward only", "car", tags("highway", "secondary", "maxspeed", "30", "maxspeed:backward", "60"), split(27, 50)},
		{"oneway=-1 reads backward limit", "car", tags("highway", "secondary", "oneway", "-1", "maxspeed:backward", "20"), bwd(18)},
		// surfaces and tracks: the worst factor counts
		{"untagged track", "car", tags("highway", "track"), both(10)}, // untagged_speed_kmh (issue 36)
		{"track grade1", "car", tags("highway", "track", "tracktype", "grade1"), both(15)},
		{"paved track", "car", tags("highway", "track", "surface", "asphalt"), both(15)},
		{"track grade2", "car", tags("highway", "track", "tracktype", "grade2"), both(15 * 0.75)},
		// tracktype slows, never closes (OSRM's car.lua, Valhalla): the way OSRM drove and we refused
		{"track grade3 slow", "car", tags("highway", "track", "tracktype", "grade3"), both(15 * 0.5)},
		{"track grade5 slow", "car", tags("highway", "track", "tracktype", "grade5"), both(15 * 0.3)},
		{"unclassified grade4 slow", "car", tags("highway", "unclassified", "tracktype", "grade4"), both(30 * 0.45)},
		{"grade4 closed by access", "car", tags("highway", "unclassified", "tracktype", "grade4", "motor_vehicle", "no"), Way{}},
		{"grade3 oneway", "car", tags("highway", "unclassified", "tracktype", "grade3", "oneway", "yes"), fwd(15)},
		{"track gravel", "car", tags("highway", "track", "surface", "gravel"), both(7.5)},
		{"worst factor wins", "car", tags("highway", "track", "surface", "compacted", "smoothness", "bad"), both(15 * 0.6)},
		{"impassable", "car", tags("highway", "residential", "smoothness", "impassable"), Way{}},
		{"4wd_only", "car", tags("highway", "track", "4wd_only", "yes"), Way{}},
		{"parking aisle", "car", tags("highway", "service", "service", "parking_aisle"), both(9)},
		{"unknown surface", "car", tags("highway", "residential", "surface", "marshmallow"), both(25)},
		// ferries
		{"ferry", "car", tags("route", "ferry"), both(20)},
		{"ferry without cars", "car", tags("route", "ferry", "motorcar", "no"), Way{}},
		{"oneway ferry", "car", tags("route", "ferry", "oneway", "yes"), fwd(20)},
	})
}

func TestWayMoto(t *testing.T) {
	runWayCases(t, []wayCase{
		{"residential", "moto", tags("highway", "residential"), both(25)},
		{"track of any grade", "moto", tags("highway", "track", "tracktype", "grade5"), both(10)},
		{"4wd track, untagged", "moto", tags("highway", "track", "4wd_only", "yes"), both(15)},
		{"graded track", "moto", tags("highway", "track", "tracktype", "grade1"), both(25)},
		{"path without permission", "moto", tags("highway", "path"), Way{}},
		{"path access=yes is not permission", "moto", tags("highway", "path", "access", "yes"), Way{}},
		{"path vehicle=yes is not permission", "moto", tags("highway", "path", "vehicle", "yes"), Way{}},
		{"path motorcycle=yes", "moto", tags("highway", "path", "motorcycle", "yes"), both(15)},
		{"path motor_vehicle=permissive", "moto", tags("highway", "path", "motor_vehicle", "permissive"), both(15)},
		{"path motorcycle=yes overrides access=no", "moto", tags("highway", "path", "access", "no", "motorcycle", "yes"), both(15)},
		{"footway motorcycle=designated", "moto", tags("highway", "footway", "motorcycle", "designated"), both(10)},
		{"path motorcycle=no", "moto", tags("highway", "path", "motorcycle", "no"), Way{}},
		{"steps never", "moto", tags("highway", "steps", "motorcycle", "yes"), Way{}},
		{"motorcycle=no", "moto", tags("highway", "residential", "motorcycle", "no"), Way{}},
		{"motorcar=no does not bind moto", "moto", tags("highway", "residential", "motorcar", "no"), both(25)},
		{"oneway:motorcycle", "moto", tags("highway", "residential", "oneway", "yes", "oneway:motorcycle", "no"), both(25)},
		{"oneway path", "moto", tags("highway", "path", "motorcycle", "yes", "oneway", "yes"), fwd(15)},
		{"motorway", "moto", tags("highway", "motorway"), fwd(100)},
		{"gravel", "moto", tags("highway", "unclassified", "surface", "gravel"), both(35 * 0.6)},
	})
}

func TestWayTruck(t *testing.T) {
	runWayCases(t, []wayCase{
		{"primary", "truck", tags("highway", "primary"), both(50)},
		{"motorway capped", "truck", tags("highway", "motorway", "maxspeed", "120"), fwd(85)},
		{"maxspeed:hgv first", "truck", tags("highway", "primary", "maxspeed", "90", "maxspeed:hgv", "40"), both(36)},
		{"maxspeed:hgv:forward", "truck", tags("highway", "primary", "maxspeed:hgv", "40", "maxspeed:hgv:forward", "30"), split(27, 36)},
		{"track refused", "truck", tags("highway", "track", "tracktype", "grade1"), Way{}},
		{"hgv=no", "truck", tags("highway", "primary", "hgv", "no"), Way{}},
		{"hgv=delivery", "truck", tags("highway", "residential", "hgv", "delivery"), both(20)},
		{"hgv=yes beats access=no", "truck", tags("highway", "residential", "access", "no", "hgv", "yes"), both(20)},
		{"maxheight below", "truck", tags("highway", "primary", "maxheight", "3.8"), Way{}},
		{"maxheight equal", "truck", tags("highway", "primary", "maxheight", "4"), both(50)},
		{"maxheight with unit", "truck", tags("highway", "primary", "maxheight", "4.5 m"), both(50)},
		{"maxheight feet and inches below", "truck", tags("highway", "primary", "maxheight", `12'6"`), Way{}},
		{"maxheight feet and inches above", "truck", tags("highway", "primary", "maxheight", `13'6"`), both(50)},
		{"maxheight default ignored", "truck", tags("highway", "primary", "maxheight", "default"), both(50)},
		{"maxheight:physical", "truck", tags("highway", "primary", "maxheight:physical", "3.5"), Way{}},
		{"maxweight below", "truck", tags("highway", "secondary", "maxweight", "3.5"), Way{}},
		{"maxweight kg", "truck", tags("highway", "secondary", "maxweight", "7500 kg"), Way{}},
		{"maxweight above", "truck", tags("highway", "secondary", "maxweight", "26"), both(40)},
		{"maxwidth", "truck", tags("highway", "secondary", "maxwidth", "2.2"), Way{}},
		{"maxlength", "truck", tags("highway", "secondary", "maxlength", "10"), Way{}},
		{"very bad road", "truck", tags("highway", "unclassified", "smoothness", "very_bad"), Way{}},
		{"car limits do not bind cars", "car", tags("highway", "primary", "maxheight", "2.5", "maxweight", "3.5"), both(60)},
	})
}

func TestWayBicycle(t *testing.T) {
	runWayCases(t, []wayCase{
		{"trunk", "bicycle", tags("highway", "trunk"), both(18)},
		{"motorway", "bicycle", tags("highway", "motorway"), Way{}},
		{"motorway bicycle=yes", "bicycle", tags("highway", "motorway", "bicycle", "yes"), Way{}},
		{"motorroad", "bicycle", tags("highway", "primary", "motorroad", "yes"), Way{}},
		{"trunk bicycle=no", "bicycle", tags("highway", "trunk", "bicycle", "no"), Way{}},
		{"cycleway", "bicycle", tags("highway", "cycleway"), both(18)},
		{"access=no bicycle=yes", "bicycle", tags("highway", "residential", "access", "no", "bicycle", "yes"), both(16)},
		{"vehicle=no", "bicycle", tags("highway", "residential", "vehicle", "no"), Way{}},
		{"motor_vehicle=no does not bind", "bicycle", tags("highway", "track", "motor_vehicle", "no"), both(12)},
		{"use_sidepath", "bicycle", tags("highway", "primary", "bicycle", "use_sidepath"), Way{}},
		// pushing
		{"footway pushed", "bicycle", tags("highway", "footway"), both(4.5)},
		{"pedestrian street pushed", "bicycle", tags("highway", "pedestrian", "surface", "sett"), both(4.5)},
		{"footway bicycle=yes ridden", "bicycle", tags("highway", "footway", "bicycle", "yes"), both(12)},
		{"footway bicycle=designated ridden", "bicycle", tags("highway", "footway", "bicycle", "designated", "surface", "gravel"), both(12 * 0.6)},
		{"footway bicycle=no", "bicycle", tags("highway", "footway", "bicycle", "no"), Way{}},
		{"footway oneway pushed both ways", "bicycle", tags("highway", "footway", "oneway", "yes"), both(4.5)},
		{"steps carried", "bicycle", tags("highway", "steps"), both(2)},
		{"dismount", "bicycle", tags("highway", "residential", "bicycle", "dismount"), both(4.5)},
		{"dismount on steps", "bicycle", tags("highway", "steps", "bicycle", "dismount"), both(2)},
		// oneway
		{"oneway pushed back", "bicycle", tags("highway", "residential", "oneway", "yes"), split(16, 4.5)},
		{"oneway -1 pushed forward", "bicycle", tags("highway", "residential", "oneway", "-1"), split(4.5, 16)},
		{"oneway primary not pushed", "bicycle", tags("highway", "primary", "oneway", "yes"), fwd(18)},
		{"oneway:bicycle=no", "bicycle", tags("highway", "primary", "oneway", "yes", "oneway:bicycle", "no"), both(18)},
		{"oneway:bicycle=yes", "bicycle", tags("highway", "primary", "oneway:bicycle", "yes"), fwd(18)},
		{"cycleway=opposite", "bicycle", tags("highway", "tertiary", "oneway", "yes", "cycleway", "opposite"), both(18)},
		{"cycleway:left=opposite_lane", "bicycle", tags("highway", "tertiary", "oneway", "yes", "cycleway:left", "opposite_lane"), both(18)},
		{"roundabout not pushed", "bicycle", tags("highway", "residential", "junction", "roundabout"), fwd(16)},
		// surfaces, trails, maxspeed
		{"path", "bicycle", tags("highway", "path"), both(10)},
		{"path gravel", "bicycle", tags("highway", "path", "surface", "gravel"), both(6)},
		{"path mtb:scale 2", "bicycle", tags("highway", "path", "mtb:scale", "2"), both(6)},
		{"path alpine", "bicycle", tags("highway", "path", "sac_scale", "alpine_hiking"), Way{}},
		{"path mtb:scale 5", "bicycle", tags("highway", "path", "mtb:scale", "5"), Way{}},
		{"maxspeed caps bicycle", "bicycle", tags("highway", "residential", "maxspeed", "10"), both(10)},
		{"ferry", "bicycle", tags("route", "ferry", "bicycle", "yes"), both(20)},
	})
}

func TestWayPedestrian(t *testing.T) {
	runWayCases(t, []wayCase{
		{"residential", "pedestrian", tags("highway", "residential"), both(5)},
		{"trunk", "pedestrian", tags("highway", "trunk"), both(5)},
		{"motorway", "pedestrian", tags("highway", "motorway"), Way{}},
		{"motorroad", "pedestrian", tags("highway", "trunk", "motorroad", "yes"), Way{}},
		{"ignores oneway", "pedestrian", tags("highway", "residential", "oneway", "yes"), both(5)},
		{"ignores oneway=-1", "pedestrian", tags("highway", "residential", "oneway", "-1"), both(5)},
		{"ignores roundabouts", "pedestrian", tags("highway", "primary", "junction", "roundabout"), both(5)},
		{"oneway:foot", "pedestrian", tags("highway", "footway", "oneway:foot", "yes"), fwd(5)},
		{"ignores maxspeed", "pedestrian", tags("highway", "living_street", "maxspeed", "3"), both(5)},
		{"ignores motor access", "pedestrian", tags("highway", "residential", "motor_vehicle", "no", "vehicle", "no"), both(5)},
		{"foot=no", "pedestrian", tags("highway", "trunk", "foot", "no"), Way{}},
		{"foot=yes beats access=no", "pedestrian", tags("highway", "service", "access", "no", "foot", "yes"), both(5)},
		{"use_sidepath", "pedestrian", tags("highway", "primary", "foot", "use_sidepath"), Way{}},
		{"steps", "pedestrian", tags("highway", "steps"), both(3)},
		{"path", "pedestrian", tags("highway", "path"), both(4.5)},
		{"path alpine", "pedestrian", tags("highway", "path", "sac_scale", "alpine_hiking"), both(4.5 * 0.5)},
		{"path T6 refused", "pedestrian", tags("highway", "path", "sac_scale", "difficult_alpine_hiking"), Way{}},
		{"scree and poor visibility", "pedestrian", tags("highway", "path", "surface", "scree", "trail_visibility", "bad"), both(4.5 * 0.6)},
		{"via_ferrata", "pedestrian", tags("highway", "via_ferrata"), Way{}},
		{"ferry", "pedestrian", tags("route", "ferry", "foot", "yes"), both(20)},
		{"loaded residential", "pedestrian_loaded", tags("highway", "residential"), both(4)},
		{"loaded ignores oneway", "pedestrian_loaded", tags("highway", "residential", "oneway", "yes"), both(4)},
		{"loaded steps", "pedestrian_loaded", tags("highway", "steps"), both(2)},
		{"loaded mountain path", "pedestrian_loaded", tags("highway", "path", "sac_scale", "mountain_hiking"), both(3.2 * 0.8)},
		{"loaded alpine refused", "pedestrian_loaded", tags("highway", "path", "sac_scale", "alpine_hiking"), Way{}},
	})
}

// TestLoadedIsSlower checks on every walkable class that the loaded walker never outpaces the unloaded one.
func TestLoadedIsSlower(t *testing.T) {
	ps := loadAll(t)
	for class := range ps["pedestrian"].highways {
		in := tags("highway", class)
		free, loaded := ps["pedestrian"].Way(in), ps["pedestrian_loaded"].Way(in)
		if loaded.Forward && !(loaded.SpeedForward < free.SpeedForward) {
			t.Errorf("highway=%s: loaded %v km/h, unloaded %v km/h", class, loaded.SpeedForward, free.SpeedForward)
		}
	}
}
