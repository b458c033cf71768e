package profile

// direction is the travel direction a way allows before pushing is considered.
type direction uint8

const (
	dirBoth direction = iota
	dirForward
	dirBackward
	dirClosed // oneway=reversible: the direction changes with time, so neither is usable without a schedule
)

// onewayRules is the compiled "oneway" object.
type onewayRules struct {
	tags       []string // most specific first, e.g. oneway:bicycle, oneway
	implied    []tagSet // e.g. junction=roundabout: oneway when no tag says otherwise
	exceptions []tagSet // e.g. cycleway=opposite: lifts a tagged oneway for this profile
}

func (c *checker) compileOneway(fo *fileOneway) onewayRules {
	if fo == nil {
		c.fail("oneway", "is missing")
		return onewayRules{}
	}
	c.names("oneway.tags", fo.Tags, true)
	return onewayRules{
		tags:       fo.Tags,
		implied:    c.tagSets("oneway.implied", fo.Implied),
		exceptions: c.tagSets("oneway.exceptions", fo.Exceptions),
	}
}

// onewayValue reads one oneway tag value. The meanings are OSM's, the same for every profile, so they are fixed
// here rather than in the files; ok is false for values that say nothing (e.g. "unknown"), which fall through.
func onewayValue(v string) (d direction, ok bool) {
	switch v {
	case "yes", "1", "true":
		return dirForward, true
	case "-1", "reverse":
		return dirBackward, true
	case "no", "0", "false", "alternating":
		// alternating: one direction at a time under signals, both over any trip-length window.
		return dirBoth, true
	case "reversible":
		return dirClosed, true
	}
	return dirBoth, false
}

// eval returns the allowed direction and whether it came from a oneway tag (not implied). The most specific
// oneway tag with a known value wins; a tagged oneway is lifted by an exception (cycleway=opposite); with no
// tag, the implied rules (junction=roundabout) apply.
func (r *onewayRules) eval(tags map[string]string) (direction, bool) {
	for _, key := range r.tags {
		v, present := tags[key]
		if !present {
			continue
		}
		d, ok := onewayValue(v)
		if !ok {
			continue
		}
		if (d == dirForward || d == dirBackward) && matchAny(r.exceptions, tags) {
			return dirBoth, true
		}
		return d, true
	}
	if matchAny(r.implied, tags) {
		return dirForward, false
	}
	return dirBoth, false
}
