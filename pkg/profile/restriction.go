package profile

import "strings"

// restrictionRules is the compiled "restrictions" object, with every tag key built at load time.
type restrictionRules struct {
	modeKeys []string            // restriction:<mode>, most specific first
	modeType map[string]struct{} // legacy type=restriction:<mode>
	plain    bool                // the plain `restriction` tag binds this profile
	condKeys []string            // restriction[:<mode>]:conditional keys that concern this profile
	except   map[string]struct{} // except=<list> entries that exempt this profile
}

// timeKeys are the pre-conditional way of limiting a restriction in time.
var timeKeys = [...]string{"day_on", "day_off", "hour_on", "hour_off"}

// restrictionKinds are the values of restriction=* that turn-restriction processing understands.
var restrictionKinds = map[string]struct{}{
	"no_left_turn": {}, "no_right_turn": {}, "no_straight_on": {}, "no_u_turn": {}, "no_entry": {}, "no_exit": {},
	"only_left_turn": {}, "only_right_turn": {}, "only_straight_on": {}, "only_u_turn": {},
}

func (c *checker) compileRestrictions(fr *fileRestrictions) restrictionRules {
	if fr == nil {
		c.fail("restrictions", "is missing")
		return restrictionRules{}
	}
	c.names("restrictions.modes", fr.Modes, false)
	c.names("restrictions.except", fr.Except, false)
	if fr.Plain == nil {
		c.fail("restrictions.plain", "is missing: say whether the plain restriction tag binds this profile")
		return restrictionRules{}
	}
	if len(fr.Modes) == 0 && !*fr.Plain {
		c.fail("restrictions.modes", "is empty and plain is false: no restriction could ever apply")
	}
	r := restrictionRules{plain: *fr.Plain, modeType: make(map[string]struct{}), except: set(fr.Except)}
	if r.plain {
		r.condKeys = append(r.condKeys, "restriction:conditional")
	}
	for _, m := range fr.Modes {
		r.modeKeys = append(r.modeKeys, "restriction:"+m)
		r.modeType["restriction:"+m] = struct{}{}
		r.condKeys = append(r.condKeys, "restriction:"+m+":conditional")
	}
	return r
}

// Restriction reports whether a type=restriction relation binds this profile, and its kind ("no_left_turn",
// "only_straight_on", ...). The kind comes from the most specific restriction:<mode> tag of the profile, else
// from the plain `restriction` tag when the profile honours it (vehicles do, pedestrians do not). A relation
// whose except=<list> names one of the profile's except modes does not apply.
//
// Time-limited restrictions are not applied here: when the relation carries a conditional key that concerns
// this profile (restriction:conditional, restriction:<mode>:conditional) or day_on/day_off/hour_on/hour_off,
// applies is false and kind is still reported (from the unconditional tag, else the part of the conditional
// value before '@'), so that time-dependent processing can pick the relation up.
func (p *Profile) Restriction(tags map[string]string) (kind string, applies bool) {
	r := &p.restrictions
	kind, ok := r.kind(tags)
	if !ok {
		return "", false
	}
	if cond, timed := r.conditional(tags); timed {
		if kind == "" {
			kind = cond
		}
		return kind, false
	}
	if _, known := restrictionKinds[kind]; !known {
		return kind, false
	}
	return kind, !r.exempt(tags["except"])
}

// kind finds the unconditional restriction value for this profile; ok is false when the relation is not a
// restriction or concerns only other modes (then it is not reported at all).
func (r *restrictionRules) kind(tags map[string]string) (string, bool) {
	typ := tags["type"]
	if typ != "restriction" {
		// Legacy form: type=restriction:hgv with a plain restriction tag, binding only that mode.
		if _, ok := r.modeType[typ]; !ok {
			return "", false
		}
		if k := tags["restriction"]; k != "" {
			return k, true
		}
		_, timed := r.conditional(tags)
		return "", timed
	}
	for _, key := range r.modeKeys {
		if k := tags[key]; k != "" {
			return k, true
		}
	}
	if k := tags["restriction"]; r.plain && k != "" {
		return k, true
	}
	_, timed := r.conditional(tags)
	return "", timed
}

// conditional reports whether the relation is time-limited for this profile, with the kind named by the
// first conditional value ("no_left_turn @ (Mo-Fr 07:00-09:00)" gives "no_left_turn").
func (r *restrictionRules) conditional(tags map[string]string) (string, bool) {
	for _, key := range r.condKeys {
		if v := tags[key]; v != "" {
			k, _, _ := strings.Cut(v, "@")
			return strings.TrimSpace(k), true
		}
	}
	for _, key := range timeKeys {
		if _, ok := tags[key]; ok {
			return "", true
		}
	}
	return "", false
}

// exempt reports whether except=<list> (semicolon separated) names one of the profile's except modes.
func (r *restrictionRules) exempt(list string) bool {
	for rest := list; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ";")
		if _, ok := r.except[strings.TrimSpace(part)]; ok {
			return true
		}
	}
	return false
}
