package profile

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Sanity bounds for numbers in a profile file. They catch typos (a speed in m/s, a factor in percent), not policy.
const (
	maxSaneSpeedKmh = 300
	maxSaneFactor   = 2
	maxSaneSizeM    = 100
	maxSaneWeightT  = 1000
	maxVersionLen   = 100 // the API's limit for speed_model_version
)

// compile validates a decoded file and builds the lookup tables Way, Barrier and Restriction use. It reports the
// first rule broken, visiting map keys in sorted order so the error is the same on every run.
func compile(fp *fileProfile, file string) (*Profile, error) {
	c := &checker{file: file}
	p := &Profile{
		Name:              fp.Name,
		Doc:               fp.Doc,
		SpeedModelVersion: fp.SpeedModelVersion,
		SpeedModelStatus:  fp.SpeedModelStatus,
		MaxSpeedKmh:       fp.MaxSpeedKmh,
		Grade:             fp.Grade,
	}
	c.checkHeader(fp)
	p.access = c.compileAccess(fp.Access, fp.Pushing != nil)
	p.highways = c.compileHighways(fp.Highways)
	p.push = c.compilePushing(fp.Pushing, fp.Highways)
	p.oneway = c.compileOneway(fp.Oneway)
	p.factors = c.compileFactors(fp.SpeedFactors)
	p.deny = c.tagSets("deny_tags", fp.DenyTags)
	p.maxspeed = c.compileMaxspeed(fp.Maxspeed)
	p.Vehicle = c.compileVehicle(fp.Vehicle)
	p.barriers = c.compileBarriers(fp.Barriers)
	p.restrictions = c.compileRestrictions(fp.Restrictions)
	if fp.Ferry != nil {
		c.speed("ferry.speed_kmh", fp.Ferry.SpeedKmh)
		p.ferryKmh = fp.Ferry.SpeedKmh
	}
	if fp.Grade != nil {
		c.checkGrade(fp.Grade)
	}
	c.checkTurns(fp.Turns)
	if fp.Turns != nil {
		p.Turns = *fp.Turns
	}
	if c.err != nil {
		return nil, c.err
	}
	return p, nil
}

func (c *checker) checkHeader(fp *fileProfile) {
	if !slices.Contains(Names(), fp.Name) {
		c.fail("name", "is %q, want one of %v", fp.Name, Names())
	}
	if fp.Doc == "" {
		c.fail("doc", "is missing: every profile explains its decisions")
	}
	switch {
	case fp.SpeedModelVersion == "":
		c.fail("speed_model_version", "is missing")
	case len(fp.SpeedModelVersion) > maxVersionLen:
		c.fail("speed_model_version", "is %d characters, the API allows %d", len(fp.SpeedModelVersion), maxVersionLen)
	}
	if fp.SpeedModelStatus != "provisional" && fp.SpeedModelStatus != "calibrated" {
		c.fail("speed_model_status", "is %q, want \"provisional\" or \"calibrated\"", fp.SpeedModelStatus)
	}
	c.speed("max_speed_kmh", fp.MaxSpeedKmh)
}

// checker records the first rule a file breaks, with the file and the dotted field path.
type checker struct {
	file string
	err  error
}

func (c *checker) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = &FieldError{File: c.file, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

// number checks lo < v <= hi (or lo <= v when inclusive) and that v is finite.
func (c *checker) number(field string, v, lo, hi float64, inclusive bool) {
	ok := !math.IsNaN(v) && !math.IsInf(v, 0) && v <= hi && (v > lo || (inclusive && v == lo))
	if !ok {
		op := "<"
		if inclusive {
			op = "<="
		}
		c.fail(field, "is %v, want %v %s value <= %v (missing fields read as 0)", v, lo, op, hi)
	}
}

func (c *checker) speed(field string, v float64)  { c.number(field, v, 0, maxSaneSpeedKmh, false) }
func (c *checker) factor(field string, v float64) { c.number(field, v, 0, maxSaneFactor, false) }

// names checks a list of tag keys or values: non-empty strings without duplicates. required rejects an empty list.
func (c *checker) names(field string, list []string, required bool) {
	if required && len(list) == 0 {
		c.fail(field, "is missing or empty")
	}
	seen := make(map[string]bool, len(list))
	for i, s := range list {
		if s == "" {
			c.fail(fmt.Sprintf("%s[%d]", field, i), "is an empty string")
		}
		if seen[s] {
			c.fail(fmt.Sprintf("%s[%d]", field, i), "repeats %q", s)
		}
		seen[s] = true
	}
}

// set builds a lookup set from a checked list.
func set(list []string) map[string]struct{} {
	m := make(map[string]struct{}, len(list))
	for _, s := range list {
		m[s] = struct{}{}
	}
	return m
}

// sortedKeys gives deterministic iteration for validation messages.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// tagSet matches a way or node whose tag key has one of the listed values.
type tagSet struct {
	key    string
	values map[string]struct{}
}

func (s tagSet) match(tags map[string]string) bool {
	v, ok := tags[s.key]
	if !ok {
		return false
	}
	_, hit := s.values[v]
	return hit
}

func matchAny(sets []tagSet, tags map[string]string) bool {
	for _, s := range sets {
		if s.match(tags) {
			return true
		}
	}
	return false
}

// tagSets compiles a {"key": ["value", ...]} object (deny_tags, oneway.implied, oneway.exceptions).
func (c *checker) tagSets(field string, m map[string][]string) []tagSet {
	var out []tagSet
	for _, key := range sortedKeys(m) {
		if key == "" {
			c.fail(field, "has an empty tag key")
		}
		c.names(field+"."+key, m[key], true)
		out = append(out, tagSet{key: key, values: set(m[key])})
	}
	return out
}
