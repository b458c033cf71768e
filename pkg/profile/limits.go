package profile

// Vehicle limits: a way or node whose posted physical or legal limit is below the profile's vehicle is not usable.
// Only the limits the vehicle has (non-zero sizes) are checked; unparsable values ("default", "below_default",
// "none") are ignored, erring toward letting the vehicle through rather than cutting the network on a typo.

func (c *checker) compileVehicle(fv *fileVehicle) VehicleSize {
	if fv == nil {
		return VehicleSize{}
	}
	c.number("vehicle.height_m", fv.HeightM, 0, maxSaneSizeM, true)
	c.number("vehicle.width_m", fv.WidthM, 0, maxSaneSizeM, true)
	c.number("vehicle.length_m", fv.LengthM, 0, maxSaneSizeM, true)
	c.number("vehicle.weight_t", fv.WeightT, 0, maxSaneWeightT, true)
	return VehicleSize{HeightM: fv.HeightM, WidthM: fv.WidthM, LengthM: fv.LengthM, WeightT: fv.WeightT}
}

// fits reports whether the vehicle fits every posted limit on the element.
func (v *VehicleSize) fits(tags map[string]string) bool {
	if v.HeightM > 0 && (below(tags, "maxheight", v.HeightM, ParseLength) ||
		below(tags, "maxheight:physical", v.HeightM, ParseLength)) {
		return false
	}
	if v.WidthM > 0 && (below(tags, "maxwidth", v.WidthM, ParseLength) ||
		below(tags, "maxwidth:physical", v.WidthM, ParseLength)) {
		return false
	}
	if v.LengthM > 0 && below(tags, "maxlength", v.LengthM, ParseLength) {
		return false
	}
	if v.WeightT > 0 && below(tags, "maxweight", v.WeightT, ParseWeight) {
		return false
	}
	return true
}

// below reports whether tag key holds a parsable limit strictly smaller than size (a limit equal to the vehicle
// lets it through: signs state what is allowed).
func below(tags map[string]string, key string, size float64, parse func(string) (float64, bool)) bool {
	v, ok := tags[key]
	if !ok {
		return false
	}
	limit, ok := parse(v)
	return ok && limit < size
}
