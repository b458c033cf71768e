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

// Limits are the limits posted on a way or node, in metres and tonnes; 0 means none is posted (or none could be
// read). NoHazmat is hazmat=no: no dangerous goods. A request's vehicle is checked against them at query time
// (pkg/graph compiles them per arc), so they are read here exactly as the profile's own vehicle is checked.
type Limits struct {
	HeightM, WidthM, LengthM, WeightT, AxleLoadT float64
	NoHazmat                                     bool
}

// PostedLimits reads an element's limits: the lower of maxheight and maxheight:physical, of maxwidth and
// maxwidth:physical, then maxlength, maxweight and maxaxleload, and hazmat=no.
func PostedLimits(tags map[string]string) Limits {
	return Limits{
		HeightM:   lowest(tags, ParseLength, "maxheight", "maxheight:physical"),
		WidthM:    lowest(tags, ParseLength, "maxwidth", "maxwidth:physical"),
		LengthM:   lowest(tags, ParseLength, "maxlength"),
		WeightT:   lowest(tags, ParseWeight, "maxweight"),
		AxleLoadT: lowest(tags, ParseWeight, "maxaxleload"),
		NoHazmat:  tags["hazmat"] == "no",
	}
}

// lowest is the smallest parsable value among keys, 0 when none has one.
func lowest(tags map[string]string, parse func(string) (float64, bool), keys ...string) float64 {
	var low float64
	for _, k := range keys {
		v, ok := tags[k]
		if !ok {
			continue
		}
		if limit, ok := parse(v); ok && (low == 0 || limit < low) {
			low = limit
		}
	}
	return low
}

// fits reports whether the vehicle fits every posted limit on the element.
func (v *VehicleSize) fits(tags map[string]string) bool {
	return *v == VehicleSize{} || v.FitsUnder(PostedLimits(tags)) // most profiles have no vehicle: no tag to read
}

// FitsUnder reports whether the vehicle fits under l: no limit it has a size for is strictly below that size (a
// limit equal to the vehicle lets it through: signs state what is allowed). Axle load and hazmat are not part of
// a profile's vehicle; a request states them (pkg/route.Vehicle).
func (v *VehicleSize) FitsUnder(l Limits) bool {
	below := func(limit, size float64) bool { return size > 0 && limit > 0 && limit < size }
	return !below(l.HeightM, v.HeightM) && !below(l.WidthM, v.WidthM) && !below(l.LengthM, v.LengthM) &&
		!below(l.WeightT, v.WeightT)
}
