package profile

// maxspeedKey is one maxspeed tag with its per-direction variants, built at load time so that evaluation does
// not concatenate strings.
type maxspeedKey struct {
	base, forward, backward string
}

// maxspeedRules is the compiled "maxspeed" object. A profile without one ignores posted limits (pedestrians).
type maxspeedRules struct {
	keys         []maxspeedKey // most specific first, e.g. maxspeed:hgv, maxspeed
	factor       float64       // share of the posted limit actually driven
	walkKmh      float64       // what maxspeed=walk means
	implicit     map[string]float64
	implicitTags []string // tags that may hold a zone code when maxspeed itself is missing
}

func (c *checker) compileMaxspeed(fm *fileMaxspeed) maxspeedRules {
	if fm == nil {
		return maxspeedRules{}
	}
	c.names("maxspeed.tags", fm.Tags, true)
	c.factor("maxspeed.factor", fm.Factor)
	c.speed("maxspeed.walk_kmh", fm.WalkKmh)
	c.names("maxspeed.implicit_tags", fm.ImplicitTags, false)
	for _, code := range sortedKeys(fm.Implicit) {
		c.speed("maxspeed.implicit."+code, fm.Implicit[code])
	}
	r := maxspeedRules{factor: fm.Factor, walkKmh: fm.WalkKmh, implicit: fm.Implicit, implicitTags: fm.ImplicitTags}
	for _, t := range fm.Tags {
		r.keys = append(r.keys, maxspeedKey{base: t, forward: t + ":forward", backward: t + ":backward"})
	}
	return r
}

// limit returns the posted limit (km/h) for one direction: for each maxspeed tag, most specific first, the
// directional variant then the plain tag; then a zone code in the implicit tags (maxspeed:type=AD:urban).
// Values that are no number ("none", "signals", "variable", unknown zone codes) are skipped.
func (r *maxspeedRules) limit(tags map[string]string, backward bool) (float64, bool) {
	for _, k := range r.keys {
		dirKey := k.forward
		if backward {
			dirKey = k.backward
		}
		if v, ok := r.parse(tags[dirKey]); ok {
			return v, true
		}
		if v, ok := r.parse(tags[k.base]); ok {
			return v, true
		}
	}
	for _, t := range r.implicitTags {
		if v, ok := r.implicit[tags[t]]; ok {
			return v, true
		}
	}
	return 0, false
}

// parse reads one maxspeed value: a number with unit, "walk", or a zone code from the implicit table.
func (r *maxspeedRules) parse(v string) (float64, bool) {
	if v == "" {
		return 0, false
	}
	if kmh, ok := ParseSpeed(v); ok {
		return kmh, true
	}
	if v == "walk" {
		return r.walkKmh, r.walkKmh > 0
	}
	kmh, ok := r.implicit[v]
	return kmh, ok
}

// Maxspeed returns the posted limit in km/h this profile reads from the tags for one direction (backward:
// against the node order), or ok=false when there is none or the profile ignores limits. Exposed for tests and
// for tools that explain a route's speeds.
func (p *Profile) Maxspeed(tags map[string]string, backward bool) (kmh float64, ok bool) {
	return p.maxspeed.limit(tags, backward)
}
