package profile

import (
	"fmt"
	"math"
)

// Grade is a profile's optional terrain speed model ("grade" in the file). Way returns flat-ground speeds; the
// graph compiler, which knows each edge's climb per direction, turns them into travel times with Seconds.
//
// Models (s is the signed grade, rise over run, negative downhill; speeds in km/h):
//   - "tobler": Tobler's hiking function, v(s) = a·exp(−b·|s + c|), applied as the factor v(s)/v(0) to the flat
//     speed, so class and surface still count. Params "a", "b" and "c" are required (Tobler 1993: 6, 3.5, 0.05).
//   - "table": piecewise-linear speed factors by absolute grade, separately "uphill" and "downhill", each a
//     list of [grade, factor] points with grades ascending from 0; beyond the last point the last factor holds.
//     Optional params: "max_downhill_kmh" caps what a descent adds to the flat speed (bicycles).
//   - "power": a motor vehicle whose climbing speed is limited by its power (the road-load equation:
//     P = v·(m·g·(s + crr) + ½·ρ·cda·v²)). Uphill the speed is the lower of the flat speed and the speed the
//     power sustains; flat and downhill speeds are the flat speed. Params "mass_kg", "power_w" and "crr" are
//     required, "cda_m2" (drag area, default 0) is optional.
//   - "pandolf": a walker carrying a load at constant metabolic power. Pandolf et al. (1977) give the cost of
//     moving as η·(W+L)·(1.5·V² + 0.35·V·G) watts (V in m/s, G the grade in percent), so at the power spent
//     walking the flat speed V0, the uphill speed solves 1.5·V² + 0.35·G·V = 1.5·V0² (body mass W, load L and
//     terrain η cancel). Pandolf's equation is for level and uphill walking; downhill the factor is Tobler's,
//     never above 1 (a loaded walker does not speed up on a descent). Params "b" and "c" (Tobler's) are required.
//
// Params holds named numbers for the model; Doc cites where the numbers come from. A *Grade is immutable after
// Load and safe for concurrent use; a nil *Grade is flat ground.
type Grade struct {
	Model    string             `json:"model"`
	Doc      string             `json:"doc"`
	Params   map[string]float64 `json:"params"`
	Uphill   []GradePoint       `json:"uphill"`
	Downhill []GradePoint       `json:"downhill"`
}

// GradePoint is one [grade, factor] point of a "table" model: grade as a ratio (0.1 = 10 %), factor > 0.
type GradePoint [2]float64

// gradeParams lists the parameters each model requires and those it also accepts.
var gradeParams = map[string]struct{ required, optional []string }{
	"tobler":  {required: []string{"a", "b", "c"}},
	"table":   {optional: []string{"max_downhill_kmh"}},
	"power":   {required: []string{"mass_kg", "power_w", "crr"}, optional: []string{"cda_m2"}},
	"pandolf": {required: []string{"b", "c"}},
}

func (c *checker) checkGrade(g *Grade) {
	spec, ok := gradeParams[g.Model]
	if !ok {
		c.fail("grade.model", "is %q, want \"tobler\", \"table\", \"power\" or \"pandolf\"", g.Model)
		return
	}
	if g.Doc == "" {
		c.fail("grade.doc", "is missing: cite the source of the model")
	}
	for _, name := range spec.required {
		if _, ok := g.Params[name]; !ok {
			c.fail("grade.params."+name, "is required by model %q", g.Model)
		}
	}
	for _, name := range sortedKeys(g.Params) {
		if indexOf(spec.required, name) < 0 && indexOf(spec.optional, name) < 0 {
			c.fail("grade.params."+name, "is not a parameter of model %q", g.Model)
		}
		if v := g.Params[name]; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			c.fail("grade.params."+name, "is %v, want a finite number >= 0", v)
		}
	}
	if g.Model == "power" {
		c.number("grade.params.mass_kg", g.Params["mass_kg"], 0, 1e6, false)
		c.number("grade.params.power_w", g.Params["power_w"], 0, 1e7, false)
	}
	if g.Model == "table" {
		c.gradeTable("grade.uphill", g.Uphill)
		c.gradeTable("grade.downhill", g.Downhill)
	} else if len(g.Uphill)+len(g.Downhill) > 0 {
		c.fail("grade.uphill", "tables belong to model \"table\" only")
	}
}

func (c *checker) gradeTable(field string, pts []GradePoint) {
	if len(pts) == 0 {
		c.fail(field, "is missing or empty")
		return
	}
	if pts[0][0] != 0 {
		c.fail(field+"[0]", "starts at grade %v, want 0", pts[0][0])
	}
	for i, pt := range pts {
		f := fmt.Sprintf("%s[%d]", field, i)
		if i > 0 && !(pt[0] > pts[i-1][0]) {
			c.fail(f, "grade %v does not increase", pt[0])
		}
		c.number(f, pt[0], 0, 1, true)
		c.factor(f, pt[1])
	}
}

// maxGradeApplied bounds the grade a model is asked about. DEM noise on a short edge can read steeper than any
// road; at 100 % every model is already at a crawl, and the power model stays well defined.
const maxGradeApplied = 1.0

// Seconds returns the time to travel lengthM metres at flat speed kph over ground that climbs ascentM and
// descends descentM along the way (the edge's Climb in the direction of travel). Only totals are known, so the
// climbing and the descending are taken at one mean absolute grade, (ascent + descent) / length, over shares of
// the length proportional to each: exact for an even slope, and reversing the direction swaps the shares, so the
// same edge uphill and downhill gets different times. A nil Grade, or kph ≤ 0, gives length / kph (+Inf for 0).
func (g *Grade) Seconds(lengthM, ascentM, descentM, kph float64) float64 {
	if lengthM <= 0 {
		return 0
	}
	climb := ascentM + descentM
	if g == nil || kph <= 0 || climb <= 0 {
		return lengthM / (kph / 3.6)
	}
	s := min(climb/lengthM, maxGradeApplied)
	up := lengthM * ascentM / climb
	return up/(g.Speed(kph, s)/3.6) + (lengthM-up)/(g.Speed(kph, -s)/3.6)
}

// Speed returns the speed in km/h at signed grade s (rise over run, negative downhill) for a way whose flat
// speed is kph. A nil Grade returns kph.
func (g *Grade) Speed(kph, s float64) float64 {
	if g == nil || kph <= 0 {
		return kph
	}
	switch g.Model {
	case "tobler":
		return kph * g.tobler(s)
	case "table":
		return g.tableSpeed(kph, s)
	case "power":
		if s <= 0 {
			return kph
		}
		return min(kph, 3.6*g.powerSpeed(s))
	case "pandolf":
		if s <= 0 {
			return kph * min(1, g.tobler(s))
		}
		return 3.6 * pandolfSpeed(kph/3.6, 100*s)
	}
	return kph
}

// tobler is Tobler's hiking function as a factor on the flat speed: exp(−b·|s + c|) / exp(−b·|c|).
func (g *Grade) tobler(s float64) float64 {
	b, c := g.Params["b"], g.Params["c"]
	return math.Exp(-b*math.Abs(s+c)) / math.Exp(-b*math.Abs(c))
}

// tableSpeed applies the uphill or downhill table; a descent's gain over the flat speed stops at
// max_downhill_kmh when that is set.
func (g *Grade) tableSpeed(kph, s float64) float64 {
	if s >= 0 {
		return kph * interpolate(g.Uphill, s)
	}
	v := kph * interpolate(g.Downhill, -s)
	if limit := g.Params["max_downhill_kmh"]; limit > 0 && v > limit {
		v = max(limit, kph)
	}
	return v
}

// interpolate reads a [grade, factor] table at grade x ≥ 0: linear between points, the last factor beyond.
func interpolate(pts []GradePoint, x float64) float64 {
	if len(pts) == 0 {
		return 1
	}
	for i := 1; i < len(pts); i++ {
		if x <= pts[i][0] {
			a, b := pts[i-1], pts[i]
			return a[1] + (b[1]-a[1])*(x-a[0])/(b[0]-a[0])
		}
	}
	return pts[len(pts)-1][1]
}

// powerSpeed returns the speed in m/s at which the power power_w balances gravity on grade s, rolling
// resistance and air drag: the positive root of ½·ρ·cda·v³ + m·g·(s + crr)·v − P, found by bisection (the
// left side grows with v once positive, so there is exactly one root).
func (g *Grade) powerSpeed(s float64) float64 {
	const rho, gravity = 1.2, 9.81
	p, m := g.Params["power_w"], g.Params["mass_kg"]
	drag, resist := 0.5*rho*g.Params["cda_m2"], m*gravity*(s+g.Params["crr"])
	lo, hi := 0.0, 100.0 // m/s
	for range 60 {
		v := (lo + hi) / 2
		if drag*v*v*v+resist*v > p {
			hi = v
		} else {
			lo = v
		}
	}
	return lo
}

// pandolfSpeed solves Pandolf's equation at constant metabolic power for the speed (m/s) on grade G (percent)
// of a walker whose flat speed is v0 (m/s): 1.5·V² + 0.35·G·V = 1.5·v0².
func pandolfSpeed(v0, gradePct float64) float64 {
	b := 0.35 * gradePct
	return (-b + math.Sqrt(b*b+9*v0*v0)) / 3
}
