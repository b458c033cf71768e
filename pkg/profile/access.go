package profile

import "strings"

// verdict is what an access value means for a profile.
type verdict uint8

const (
	verdictUnknown verdict = iota // value not in the profile's table: fall through to the next, less specific tag
	verdictDeny
	verdictPush        // bicycle=dismount: usable on foot, pushing the bicycle
	verdictDestination // usable to reach a place on the way or beyond it, not to pass through (Way.Destination)
	verdictAllow
)

var verdictNames = map[string]verdict{"allow": verdictAllow, "deny": verdictDeny, "push": verdictPush,
	"destination": verdictDestination}

// accessRules is the compiled "access" object: the tag hierarchy, most specific first, and what each value means.
type accessRules struct {
	tags     []string
	explicit []bool // explicit[i]: tags[i] counts as explicit permission for needs_explicit_access classes
	values   map[string]verdict
}

func (c *checker) compileAccess(fa *fileAccess, hasPushing bool) accessRules {
	if fa == nil {
		c.fail("access", "is missing")
		return accessRules{}
	}
	c.names("access.tags", fa.Tags, true)
	c.names("access.explicit_tags", fa.ExplicitTags, false)
	r := accessRules{tags: fa.Tags, explicit: make([]bool, len(fa.Tags)), values: make(map[string]verdict)}
	for _, e := range fa.ExplicitTags {
		i := indexOf(fa.Tags, e)
		if i < 0 {
			c.fail("access.explicit_tags", "%q is not in access.tags", e)
			continue
		}
		r.explicit[i] = true
	}
	if len(fa.Values) == 0 {
		c.fail("access.values", "is missing or empty")
	}
	for _, value := range sortedKeys(fa.Values) {
		v, ok := verdictNames[fa.Values[value]]
		switch {
		case !ok:
			c.fail("access.values."+value, "is %q, want \"allow\", \"destination\", \"deny\" or \"push\"", fa.Values[value])
		case v == verdictPush && !hasPushing:
			c.fail("access.values."+value, "is \"push\" but the profile has no pushing section")
		case value == "" || strings.Contains(value, ";"):
			c.fail("access.values", "key %q must be a single non-empty value (lists are split at ';')", value)
		}
		r.values[value] = v
	}
	return r
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// eval walks the hierarchy and returns the first known verdict and whether the tag that gave it is explicit.
// verdictUnknown means no tag decided: the class default (usable) applies.
func (r *accessRules) eval(tags map[string]string) (verdict, bool) {
	for i, key := range r.tags {
		value, ok := tags[key]
		if !ok {
			continue
		}
		if v := r.value(value); v != verdictUnknown {
			return v, r.explicit[i]
		}
	}
	return verdictUnknown, false
}

// value classifies one tag value. A list such as "destination;delivery" names the uses that are permitted, so the
// mode may pass if any part allows it (allow beats destination: "yes;destination" is open to all); failing that,
// push beats deny, and a list of unknown parts is unknown.
func (r *accessRules) value(value string) verdict {
	if v, ok := r.values[value]; ok {
		return v
	}
	if strings.IndexByte(value, ';') < 0 {
		return verdictUnknown
	}
	best := verdictUnknown
	for rest := value; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ";")
		best = max(best, r.values[strings.TrimSpace(part)])
	}
	return best
}
