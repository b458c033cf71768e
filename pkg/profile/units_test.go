package profile

import "testing"

func TestParseSpeed(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"50", 50, true}, {" 50 ", 50, true}, {"50 km/h", 50, true}, {"50kmh", 50, true}, {"50 kph", 50, true},
		{"30 mph", 30 * kmhPerMph, true}, {"30mph", 30 * kmhPerMph, true}, {"10 knots", 10 * kmhPerKnot, true},
		{"7.5", 7.5, true}, {"7,5", 7.5, true}, {"400", 400, true},
		{"0", 0, false}, {"0.5", 0, false}, {"401", 0, false}, {"-50", 0, false}, {"", 0, false},
		{"none", 0, false}, {"walk", 0, false}, {"signals", 0, false}, {"AD:urban", 0, false},
		{"50 mps", 0, false}, {"50;30", 0, false}, {"5.", 0, false}, {".5", 0, false}, {"1e3", 0, false},
		{"9999999999", 0, false}, {"NaN", 0, false}, {"Inf", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseSpeed(c.in)
		if ok != c.ok || (ok && !closeTo(got, c.want)) {
			t.Errorf("ParseSpeed(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseLengthAndWeight(t *testing.T) {
	lengths := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"3.8", 3.8, true}, {"3.8 m", 3.8, true}, {"4,2m", 4.2, true}, {"12 ft", 12 * metresPerFt, true},
		{`12'6"`, 12*metresPerFt + 6*metresPerIn, true}, {`12' 6"`, 12*metresPerFt + 6*metresPerIn, true},
		{`13'`, 13 * metresPerFt, true}, {`12'13"`, 0, false}, {`12'6`, 0, false},
		{"default", 0, false}, {"below_default", 0, false}, {"none", 0, false}, {"0", 0, false}, {"3.8 km", 0, false},
	}
	for _, c := range lengths {
		got, ok := ParseLength(c.in)
		if ok != c.ok || (ok && !closeTo(got, c.want)) {
			t.Errorf("ParseLength(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	weights := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"3.5", 3.5, true}, {"3.5 t", 3.5, true}, {"7500 kg", 7.5, true}, {"5 st", 5 * tonnesPerSt, true},
		{"10000 lbs", 10000 * tonnesPerLb, true}, {"0", 0, false}, {"none", 0, false}, {"3.5 tons", 0, false},
	}
	for _, c := range weights {
		got, ok := ParseWeight(c.in)
		if ok != c.ok || (ok && !closeTo(got, c.want)) {
			t.Errorf("ParseWeight(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestMaxspeed(t *testing.T) {
	ps := loadAll(t)
	cases := []struct {
		profile  string
		tags     map[string]string
		backward bool
		want     float64
		ok       bool
	}{
		{"car", tags("maxspeed", "50"), false, 50, true},
		{"car", tags("maxspeed", "walk"), false, 6, true},
		{"car", tags("maxspeed", "none"), false, 0, false},
		{"car", tags("maxspeed", "signals"), false, 0, false},
		{"car", tags("maxspeed", "FR:urban"), false, 50, true},
		{"car", tags("maxspeed", "FR:rural"), false, 80, true},
		{"car", tags("maxspeed", "XX:urban"), false, 0, false},
		{"car", tags("zone:maxspeed", "AD:zone30"), false, 30, true},
		{"car", tags("maxspeed", "none", "source:maxspeed", "AD:rural"), false, 90, true},
		{"car", tags("maxspeed", "50", "maxspeed:forward", "30"), false, 30, true},
		{"car", tags("maxspeed", "50", "maxspeed:forward", "30"), true, 50, true},
		{"car", tags("maxspeed:hgv", "30"), false, 0, false},
		{"truck", tags("maxspeed", "90", "maxspeed:hgv", "70"), false, 70, true},
		{"truck", tags("maxspeed", "90", "maxspeed:hgv", "none"), false, 90, true},
		{"pedestrian", tags("maxspeed", "50"), false, 0, false},
	}
	for _, c := range cases {
		got, ok := ps[c.profile].Maxspeed(c.tags, c.backward)
		if ok != c.ok || !closeTo(got, c.want) {
			t.Errorf("%s.Maxspeed(%v, backward=%v) = %v, %v; want %v, %v", c.profile, c.tags, c.backward, got, ok, c.want, c.ok)
		}
	}
}
