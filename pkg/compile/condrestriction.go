package compile

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/profile"
	"github.com/mapsco/maps/pkg/timecond"
)

// legacyKey marks the rule made of day_on/day_off/hour_on/hour_off: while it
// is in force the relation's unconditional restriction tags apply, and
// outside it none do.
const legacyKey = "\x00legacy"

// restrictionRules returns the time rules of a restriction relation, from
// its restriction[:<mode>]:conditional tags and its legacy time tags. timed
// is false for a relation with neither.
func (c *conditions) restrictionRules(id int64, tags map[string]string) (rules []keyedRule, timed bool) {
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		base, ok := strings.CutSuffix(k, ":conditional")
		if !ok || !strings.HasPrefix(base, "restriction") {
			continue
		}
		timed = true
		for _, r := range c.parse("relation", id, k, tags[k]) {
			rules = append(rules, keyedRule{base, r})
		}
	}
	if tags["day_on"] != "" || tags["hour_on"] != "" {
		timed = true
		c.report.Found["day_on/hour_on"]++
		s, err := timecond.Legacy(tags["day_on"], tags["day_off"], tags["hour_on"], tags["hour_off"])
		if err != nil {
			c.report.Unparsed++
			c.example("relation %d day_on/hour_on: %v", id, err)
		} else {
			c.report.Parsed++
			rules = append(rules, keyedRule{legacyKey, timecond.Rule{When: s}})
		}
	}
	return rules, timed
}

// restrictionTags returns a relation's tags as they read in state: no
// conditional or legacy time keys, the conditional values in force applied.
func restrictionTags(tags map[string]string, rules []keyedRule, state int) map[string]string {
	out := maps.Clone(tags)
	for k := range out {
		if strings.HasPrefix(k, "restriction") && strings.HasSuffix(k, ":conditional") || slices.Contains(legacyTimeKeys, k) {
			delete(out, k)
		}
	}
	for i, r := range rules {
		if r.key != legacyKey || state&(1<<i) != 0 {
			continue
		}
		for k := range out {
			if k == "restriction" || strings.HasPrefix(k, "restriction:") {
				delete(out, k)
			}
		}
	}
	var plain []keyedRule
	for _, r := range rules {
		if r.key != legacyKey {
			plain = append(plain, r)
		}
	}
	return applyRules(out, plain, compact(rules, state))
}

// compact drops the legacy rule's bit from state, so that state's bits
// line up with the rules that remain.
func compact(rules []keyedRule, state int) int {
	out, j := 0, 0
	for i, r := range rules {
		if r.key == legacyKey {
			continue
		}
		if state&(1<<i) != 0 {
			out |= 1 << j
		}
		j++
	}
	return out
}

// conditionalRestrictions evaluates a timed relation for every profile in
// every state of its rules, and returns one restriction per kind and set of
// states, with the profiles it binds. template carries the members.
func (c *conditions) conditionalRestrictions(template graph.Restriction, tags map[string]string, rules []keyedRule, profiles []*profile.Profile) []graph.Restriction {
	if len(rules) > graph.MaxRules {
		c.tooMany("relation", template.Relation, len(rules))
		return nil
	}
	type key struct {
		kind string
		when uint16
	}
	bound := map[key]uint32{}
	all := uint16(1<<(1<<len(rules)) - 1)
	for i, p := range profiles {
		when := map[string]uint16{}
		for st := range 1 << len(rules) {
			if kind, applies := p.Restriction(restrictionTags(tags, rules, st)); applies {
				when[kind] |= 1 << st
			}
		}
		for kind, w := range when {
			bound[key{kind, w}] |= 1 << i
		}
	}
	var out []graph.Restriction
	for _, k := range slices.SortedFunc(maps.Keys(bound), func(a, b key) int {
		return cmp.Or(strings.Compare(a.kind, b.kind), cmp.Compare(a.when, b.when))
	}) {
		rs := template
		rs.Profiles, rs.Only = bound[k], strings.HasPrefix(k.kind, "only_")
		if k.when != all {
			rs.Schedules, rs.When = c.ids(rules), k.when
		}
		out = append(out, rs)
	}
	return out
}
