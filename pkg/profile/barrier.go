package profile

// barrierRules is the compiled "barriers" object.
type barrierRules struct {
	blockByDefault bool            // barrier values in neither list
	blocks         map[string]bool // barrier value → blocks this profile
}

func (c *checker) compileBarriers(fb *fileBarriers) barrierRules {
	if fb == nil {
		c.fail("barriers", "is missing")
		return barrierRules{}
	}
	r := barrierRules{blocks: make(map[string]bool)}
	switch fb.Default {
	case "block":
		r.blockByDefault = true
	case "pass":
	default:
		c.fail("barriers.default", "is %q, want \"block\" or \"pass\"", fb.Default)
	}
	c.names("barriers.block", fb.Block, false)
	c.names("barriers.pass", fb.Pass, false)
	for _, b := range fb.Block {
		r.blocks[b] = true
	}
	for _, b := range fb.Pass {
		if r.blocks[b] {
			c.fail("barriers.pass", "%q is also in barriers.block", b)
		}
		r.blocks[b] = false
	}
	return r
}

// Barrier reports whether a node with these tags blocks this profile. Only barrier=* nodes block: a vehicle limit
// on the node below the profile's vehicle blocks; then the node's access tags, read with the profile's hierarchy,
// decide (barrier=gate + access=private blocks a car, barrier=bollard + motorcar=yes does not); with no deciding
// access tag, a height restrictor whose posted height (maxheight or maxheight:physical) the vehicle fits under
// lets it through, since that height is what it stops (one without a readable height blocks a vehicle with a
// height when the profile lists it), and otherwise the barrier value's entry in the profile decides. Access tags
// on nodes that are not barriers are ignored, because such nodes are often points of interest drawn on the road (a
// private car park's entrance) rather than a physical stop.
func (p *Profile) Barrier(tags map[string]string) bool {
	b, ok := tags["barrier"]
	if !ok || b == "" {
		return false
	}
	if !p.Vehicle.fits(tags) {
		return true
	}
	switch v, _ := p.access.eval(tags); v {
	case verdictAllow, verdictDestination, verdictPush:
		return false
	case verdictDeny:
		return true
	}
	if b == "height_restrictor" && p.Vehicle.HeightM > 0 && postedHeight(tags) {
		return false // fits under it: fits checked that height
	}
	if blocks, ok := p.barriers.blocks[b]; ok {
		return blocks
	}
	return p.barriers.blockByDefault
}

// postedHeight reports whether the node states a readable height limit.
func postedHeight(tags map[string]string) bool {
	for _, k := range [...]string{"maxheight", "maxheight:physical"} {
		if v, ok := tags[k]; ok {
			if _, ok := ParseLength(v); ok {
				return true
			}
		}
	}
	return false
}
