package main

import (
	"fmt"
	"math"
	"strings"
)

// snapApartM: ends placed further apart than this by the two engines are a snapping difference.
const snapApartM = 25

// classify gives a first guess at why a pair's lengths differ by more than 5 %; docs/osrm-agreement.md
// checks the guesses by reading the routes.
func classify(pr *pairResult) (cause, detail string) {
	o, s := pr.Ours, pr.OSRM
	if math.Abs(pr.DistR-1) <= 0.05 {
		if math.Abs(pr.DurR-1) > 0.05 {
			return "length within 5 %, duration not", ""
		}
		return "within 5 %", ""
	}
	da, db := haversine(o.SnapFrom, s.SnapFrom), haversine(o.SnapTo, s.SnapTo)
	if max(da, db) > snapApartM {
		return "ends snapped apart", fmt.Sprintf("start %.0f m apart, end %.0f m apart", da, db)
	}
	if w, ok := first(pr.OnlyOSRM, func(w wayUse) bool { return w.OurKmh == 0 }); ok {
		return "OSRM drives a way car.json refuses", fmt.Sprintf("way %d (%.0f m): %s", w.ID, w.Len, w.Tags)
	}
	if w, ok := first(pr.OnlyOurs, func(w wayUse) bool { return w.OSKmh == 0 }); ok {
		return "mapd drives a way car.lua refuses", fmt.Sprintf("way %d (%.0f m): %s", w.ID, w.Len, w.Tags)
	}
	if o.UTurns > s.UTurns {
		return "mapd turns back at a junction, where car.lua allows no U-turn", fmt.Sprintf("%d U-turn(s)", o.UTurns)
	}
	if w, ok := first(pr.OnlyOurs, restrictedInOSRM); ok {
		return "mapd goes through a way car.lua restricts (destination, private, delivery, customers)", fmt.Sprintf("way %d (%.0f m): %s", w.ID, w.Len, w.Tags)
	}
	t := pr.Times
	if t.OursByOurs > 0 && t.OSRMByOSRM > 0 && t.OursByOurs <= t.OSRMByOurs && t.OSRMByOSRM <= t.OursByOSRM {
		return "speed models prefer different roads", fmt.Sprintf("ours %.0f s vs OSRM's %.0f s by our speeds; %.0f vs %.0f by car.lua's", t.OursByOurs, t.OSRMByOurs, t.OursByOSRM, t.OSRMByOSRM)
	}
	return "other", fmt.Sprintf("ours %.0f s vs OSRM's %.0f s by our speeds; %.0f vs %.0f by car.lua's", t.OursByOurs, t.OSRMByOurs, t.OursByOSRM, t.OSRMByOSRM)
}

func restrictedInOSRM(w wayUse) bool {
	for _, v := range []string{"destination", "private", "delivery", "customers"} {
		for _, k := range []string{"access=", "vehicle=", "motor_vehicle=", "motorcar="} {
			if strings.Contains(" "+w.Tags+" ", " "+k+v+" ") {
				return true
			}
		}
	}
	return false
}

func first(ws []wayUse, f func(wayUse) bool) (wayUse, bool) {
	for _, w := range ws {
		if f(w) {
			return w, true
		}
	}
	return wayUse{}, false
}
