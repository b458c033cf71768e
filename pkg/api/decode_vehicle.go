package api

import (
	"strings"

	"github.com/mapsco/maps/pkg/jsonscan"
	"github.com/mapsco/maps/pkg/route"
)

// This file decodes the truck's vehicle (issue 35): an object of optional sizes, each a number within its
// documented range, and hazmat, a boolean. A member absent keeps the profile's own value (route.Vehicle).

// VehicleProfile is the one profile a request's vehicle applies to.
const VehicleProfile = "truck"

// vehicleSize is one numeric member of the vehicle and its range.
type vehicleSize struct {
	name, unit string
	min, max   float64
	field      func(*route.Vehicle) *float64
}

// vehicleSizes are the numeric members, in the order of the specification.
var vehicleSizes = []vehicleSize{
	{"height_m", "m", MinVehicleHeightM, MaxVehicleHeightM, func(v *route.Vehicle) *float64 { return &v.HeightM }},
	{"width_m", "m", MinVehicleWidthM, MaxVehicleWidthM, func(v *route.Vehicle) *float64 { return &v.WidthM }},
	{"length_m", "m", MinVehicleLengthM, MaxVehicleLengthM, func(v *route.Vehicle) *float64 { return &v.LengthM }},
	{"weight_t", "t", MinVehicleWeightT, MaxVehicleWeightT, func(v *route.Vehicle) *float64 { return &v.WeightT }},
	{"axle_load_t", "t", MinVehicleAxleLoadT, MaxVehicleAxleLoadT, func(v *route.Vehicle) *float64 { return &v.AxleLoadT }},
}

// vehicleMemberNames lists the vehicle's members for messages.
func vehicleMemberNames() string {
	names := make([]string, 0, len(vehicleSizes)+1)
	for _, s := range vehicleSizes {
		names = append(names, s.name)
	}
	return strings.Join(append(names, "hazmat"), ", ")
}

// vehicle reads the vehicle object; each bad member is reported at its own pointer.
func (d *decoder) vehicle() route.Vehicle {
	p := memberPointer("vehicle")
	var v route.Vehicle
	if k := d.s.Kind(); k != jsonscan.Object {
		d.wrongOrNull(p, "an object with any of "+vehicleMemberNames(), k)
		d.s.Skip()
		return v
	}
	d.s.Enter()
	seen := map[string]bool{}
	for first := true; d.s.Next('}', first); first = false {
		name := string(d.s.MemberName())
		mp := p.Member(name)
		if seen[name] {
			d.errs.addf(mp, "appears more than once")
			d.s.Skip()
			continue
		}
		seen[name] = true
		if name == "hazmat" {
			v.Hazmat = d.boolean(mp, false)
			continue
		}
		d.vehicleSize(mp, name, &v)
	}
	return v
}

// vehicleSize reads the numeric member name into v, or reports it unknown.
func (d *decoder) vehicleSize(p jsonscan.Pointer, name string, v *route.Vehicle) {
	for _, s := range vehicleSizes {
		if s.name != name {
			continue
		}
		if k := d.s.Kind(); k != jsonscan.Number {
			d.wrongOrNull(p, "a number of "+s.unit, k)
			d.s.Skip()
			return
		}
		x, ok := d.number(p, name)
		if !ok {
			return
		}
		if x < s.min || x > s.max {
			d.errs.addf(p, "must be from %g to %g %s, got %s", s.min, s.max, s.unit, formatNumber(x))
			return
		}
		*s.field(v) = x
		return
	}
	d.errs.addf(p, "is not a member of a vehicle, whose members are %s", vehicleMemberNames())
	d.s.Skip()
}

// vehicleApplies reports a vehicle sent with a profile it does not apply to, at the vehicle's pointer.
func (d *decoder) vehicleApplies(seen memberSet, profile string) {
	if seen.has(memberVehicle) && profile != VehicleProfile && !d.s.Failed() {
		d.errs.addf(memberPointer("vehicle"), "applies only to profile %q; the request's profile is %q", VehicleProfile, profile)
	}
}
