package profile

// highwayRule is one entry of "highways": a class the profile rides or drives.
type highwayRule struct {
	speedKmh      float64
	needsExplicit bool // usable only with explicit permission (motorcycle=yes on a footway for moto)
	// untaggedKmh, when > 0, replaces speedKmh on a way that says nothing
	// of its state (no tracktype, surface or smoothness): an untagged field
	// track is not driven as fast as a graded one.
	untaggedKmh float64
}

// untagged reports whether a way says nothing of its state.
func untagged(tags map[string]string) bool {
	return tags["tracktype"] == "" && tags["surface"] == "" && tags["smoothness"] == ""
}

func (c *checker) compileHighways(m map[string]fileHighway) map[string]highwayRule {
	if len(m) == 0 {
		c.fail("highways", "is missing or empty")
	}
	out := make(map[string]highwayRule, len(m))
	for _, class := range sortedKeys(m) {
		if class == "" {
			c.fail("highways", "has an empty class name")
		}
		c.speed("highways."+class+".speed_kmh", m[class].SpeedKmh)
		if m[class].UntaggedSpeedKmh != 0 {
			c.speed("highways."+class+".untagged_speed_kmh", m[class].UntaggedSpeedKmh)
		}
		out[class] = highwayRule{speedKmh: m[class].SpeedKmh, needsExplicit: m[class].NeedsExplicitAccess,
			untaggedKmh: m[class].UntaggedSpeedKmh}
	}
	return out
}

// pushRules is the compiled "pushing" object: where a cyclist walks the bicycle, and how fast.
type pushRules struct {
	defaultKmh    float64            // bicycle=dismount on a ridden class, and pushing against a oneway
	highways      map[string]float64 // classes walked with the bicycle, e.g. footway, steps
	againstOneway map[string]struct{}
}

func (c *checker) compilePushing(fp *filePushing, highways map[string]fileHighway) pushRules {
	if fp == nil {
		return pushRules{}
	}
	c.speed("pushing.speed_kmh", fp.SpeedKmh)
	for _, class := range sortedKeys(fp.Highways) {
		c.speed("pushing.highways."+class, fp.Highways[class])
	}
	c.names("pushing.against_oneway", fp.AgainstOneway, false)
	for _, class := range fp.AgainstOneway {
		if _, ok := highways[class]; !ok {
			c.fail("pushing.against_oneway", "%q is not a class in highways", class)
		}
	}
	return pushRules{defaultKmh: fp.SpeedKmh, highways: fp.Highways, againstOneway: set(fp.AgainstOneway)}
}

// pushSpeed is the walking speed with a bicycle on a class: its own entry, else the default.
func (r *pushRules) pushSpeed(class string) float64 {
	if s, ok := r.highways[class]; ok {
		return s
	}
	return r.defaultKmh
}

// Way evaluates an OSM way's tags for this profile (see the package documentation for the order of the rules).
// A way the profile cannot use gives the zero Way.
func (p *Profile) Way(tags map[string]string) Way {
	if tags["route"] == "ferry" {
		return p.ferryWay(tags)
	}
	class := tags["highway"]
	rule, ridable := p.highways[class]
	_, pushable := p.push.highways[class]
	if !ridable && !pushable {
		return Way{}
	}
	if matchAny(p.deny, tags) || !p.Vehicle.fits(tags) {
		return Way{}
	}
	v, explicit := p.access.eval(tags)
	switch {
	case v == verdictDeny:
		return Way{}
	case v == verdictPush:
		return bothWays(p.push.pushSpeed(class))
	case ridable && (!rule.needsExplicit || (v >= verdictDestination && explicit)):
		w := p.rideWay(tags, class, rule)
		w.Destination = v == verdictDestination && (w.Forward || w.Backward)
		return w
	case pushable:
		// Pushing is walking: oneway tags, surfaces and posted limits do not change a walking pace.
		return bothWays(p.push.highways[class])
	}
	return Way{}
}

// rideWay is a way ridden or driven: direction from the oneway rules, speed per direction.
func (p *Profile) rideWay(tags map[string]string, class string, rule highwayRule) Way {
	dir, tagged := p.oneway.eval(tags)
	if dir == dirClosed {
		return Way{}
	}
	f := p.factor(tags)
	if rule.untaggedKmh > 0 && untagged(tags) {
		rule.speedKmh = rule.untaggedKmh
	}
	var w Way
	if dir != dirBackward {
		w.Forward, w.SpeedForward = true, p.rideSpeed(rule.speedKmh, f, tags, false)
	}
	if dir != dirForward {
		w.Backward, w.SpeedBackward = true, p.rideSpeed(rule.speedKmh, f, tags, true)
	}
	if _, ok := p.push.againstOneway[class]; ok && tagged {
		// A cyclist may walk the bicycle against a signed oneway street (on the pavement); not against an
		// implied one such as a roundabout.
		if !w.Forward {
			w.Forward, w.SpeedForward = true, p.push.defaultKmh
		}
		if !w.Backward {
			w.Backward, w.SpeedBackward = true, p.push.defaultKmh
		}
	}
	return w
}

// ferryWay is a route=ferry way: usable when the profile has a ferry speed and access does not deny it.
func (p *Profile) ferryWay(tags map[string]string) Way {
	if p.ferryKmh == 0 {
		return Way{}
	}
	if v, _ := p.access.eval(tags); v == verdictDeny {
		return Way{}
	}
	dir, _ := p.oneway.eval(tags)
	var w Way
	if dir == dirBoth || dir == dirForward {
		w.Forward, w.SpeedForward = true, p.ferryKmh
	}
	if dir == dirBoth || dir == dirBackward {
		w.Backward, w.SpeedBackward = true, p.ferryKmh
	}
	return w
}

func bothWays(kmh float64) Way {
	return Way{Forward: true, Backward: true, SpeedForward: kmh, SpeedBackward: kmh}
}
