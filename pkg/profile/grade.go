package profile

import (
	"fmt"
	"math"
)

// Grade is a profile's optional terrain speed model ("grade" in the file). This package parses and validates
// it and exposes it on Profile.Grade; it does not apply it: Way returns flat-ground speeds, and the elevation
// step (which knows each edge's climb per direction) multiplies them by the model's factor.
//
// Models:
//   - "tobler": a walking speed from Tobler's hiking function, v(s) = a·exp(−b·|s + c|) km/h, where s is the
//     signed grade (rise/run, negative downhill). Params "a", "b" and "c" are required (Tobler 1993: 6, 3.5,
//     0.05). The factor for an edge is v(s)/v(0) applied to the flat speed, so class and surface still count.
//   - "table": piecewise-linear speed factors by absolute grade, separately "uphill" and "downhill", each a
//     list of [grade, factor] points with grades ascending from 0; beyond the last point the last factor holds.
//     Optional params: "max_downhill_kmh" caps downhill speed (bicycles).
//
// Params holds named numbers for the model; Doc cites where the numbers come from.
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
	"tobler": {required: []string{"a", "b", "c"}},
	"table":  {optional: []string{"max_downhill_kmh"}},
}

func (c *checker) checkGrade(g *Grade) {
	spec, ok := gradeParams[g.Model]
	if !ok {
		c.fail("grade.model", "is %q, want \"tobler\" or \"table\"", g.Model)
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
