package profile

// tagFactors is one entry of "speed_factors": a tag key and the factor each of its values applies.
type tagFactors struct {
	key    string
	values map[string]float64
}

func (c *checker) compileFactors(m map[string]map[string]float64) []tagFactors {
	var out []tagFactors
	for _, key := range sortedKeys(m) {
		if key == "" {
			c.fail("speed_factors", "has an empty tag key")
		}
		if len(m[key]) == 0 {
			c.fail("speed_factors."+key, "is empty")
		}
		for _, value := range sortedKeys(m[key]) {
			c.factor("speed_factors."+key+"."+value, m[key][value])
		}
		out = append(out, tagFactors{key: key, values: m[key]})
	}
	return out
}

// factor returns the smallest factor among the way's matching tags (1 if none match). The worst condition
// dominates: a rough gravel track is as slow as its worst attribute says, not the product of three penalties
// that describe the same roughness (surface=gravel, smoothness=bad and tracktype=grade3 usually come together).
func (p *Profile) factor(tags map[string]string) float64 {
	f := 1.0
	for i := range p.factors {
		v, ok := tags[p.factors[i].key]
		if !ok {
			continue
		}
		if x, ok := p.factors[i].values[v]; ok {
			f = min(f, x)
		}
	}
	return f
}

// rideSpeed is the speed in one direction on a ridden/driven class: the class speed times the surface factor,
// capped by the posted limit for that direction (× maxspeed.factor) and by the vehicle's top speed.
func (p *Profile) rideSpeed(classKmh, factor float64, tags map[string]string, backward bool) float64 {
	s := classKmh * factor
	if limit, ok := p.maxspeed.limit(tags, backward); ok {
		s = min(s, limit*p.maxspeed.factor)
	}
	return min(s, p.MaxSpeedKmh)
}
