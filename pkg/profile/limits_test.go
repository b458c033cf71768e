package profile

import "testing"

// TestPostedLimits reads limits as Andorra's mappers wrote them ("4.30", "4.3", "4", "3.8", "2.1"; 8 highway ways
// and 4 barrier nodes carry one) and as others do ("3.5 m", "12 t", 7'6", kilograms), the lower of a legal and a
// physical limit, and ignores what is not a number.
func TestPostedLimits(t *testing.T) {
	for _, c := range []struct {
		tags map[string]string
		want Limits
	}{
		{map[string]string{"maxheight": "4.30"}, Limits{HeightM: 4.3}},
		{map[string]string{"maxheight": "4", "maxweight": "2.1"}, Limits{HeightM: 4, WeightT: 2.1}},
		{map[string]string{"maxheight": "4.3", "maxheight:physical": "3.8"}, Limits{HeightM: 3.8}},
		{map[string]string{"maxheight": "default", "maxheight:physical": "3.5 m"}, Limits{HeightM: 3.5}},
		{map[string]string{"maxheight": `7'6"`}, Limits{HeightM: 7*metresPerFt + 6*metresPerIn}},
		{map[string]string{"maxwidth": "2,2", "maxwidth:physical": "none", "maxlength": "10 m"}, Limits{WidthM: 2.2, LengthM: 10}},
		{map[string]string{"maxweight": "12 t", "maxaxleload": "7500 kg"}, Limits{WeightT: 12, AxleLoadT: 7.5}},
		{map[string]string{"hazmat": "no"}, Limits{NoHazmat: true}},
		{map[string]string{"hazmat": "designated", "maxheight": "below_default"}, Limits{}},
	} {
		got := PostedLimits(c.tags)
		if !closeTo(got.HeightM, c.want.HeightM) || !closeTo(got.WidthM, c.want.WidthM) || got.LengthM != c.want.LengthM ||
			got.WeightT != c.want.WeightT || got.AxleLoadT != c.want.AxleLoadT || got.NoHazmat != c.want.NoHazmat {
			t.Errorf("PostedLimits(%v) = %+v, want %+v", c.tags, got, c.want)
		}
	}
	truck := VehicleSize{HeightM: 4, WidthM: 2.55, LengthM: 12, WeightT: 18}
	for _, c := range []struct {
		l    Limits
		fits bool
	}{
		{Limits{HeightM: 4.3}, true}, {Limits{HeightM: 4}, true}, {Limits{HeightM: 3.8}, false},
		{Limits{WeightT: 18}, true}, {Limits{WeightT: 7.5}, false}, {Limits{AxleLoadT: 5, NoHazmat: true}, true},
	} {
		if got := truck.FitsUnder(c.l); got != c.fits {
			t.Errorf("the truck under %+v: fits %v, want %v", c.l, got, c.fits)
		}
	}
}
