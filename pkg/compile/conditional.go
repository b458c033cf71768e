package compile

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/profile"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/timecond"
)

// wayCondKeys are the way tags whose :conditional form can change what a
// profile may use or how fast: the access and direction keys the profiles
// read, and the speed limits.
var wayCondKeys = []string{
	"access", "vehicle", "motor_vehicle", "motorcar", "motorcycle", "moped", "mofa", "hgv", "goods",
	"psv", "bus", "bicycle", "foot", "oneway", "oneway:bicycle", "maxspeed", "maxspeed:forward", "maxspeed:backward",
}

// legacyTimeKeys are the older way of limiting a turn restriction in time.
var legacyTimeKeys = []string{"day_on", "day_off", "hour_on", "hour_off"}

// keyedRule is one rule of a conditional tag: while it is in force, Key
// takes its Value.
type keyedRule struct {
	key string
	timecond.Rule
}

// conditions gathers what a build learns of conditional tags: the
// schedules they use (shared by index) and the report mapc prints.
type conditions struct {
	schedules []timecond.Schedule
	index     map[string]uint32
	report    release.ConditionalReport
}

func newConditions() *conditions {
	return &conditions{index: map[string]uint32{}, report: release.ConditionalReport{Found: map[string]int64{}}}
}

// schedule returns s's id, adding it on first use.
func (c *conditions) schedule(s timecond.Schedule) uint32 {
	id, ok := c.index[s.String()]
	if !ok {
		id = uint32(len(c.schedules))
		c.index[s.String()] = id
		c.schedules = append(c.schedules, s)
	}
	return id
}

// parse reads tag key=v, counting the outcome; nil when it must be ignored.
func (c *conditions) parse(kind string, id int64, key, v string) []timecond.Rule {
	c.report.Found[key]++
	rules, err := timecond.ParseConditional(v)
	switch {
	case err == nil:
		c.report.Parsed++
		return rules
	case errors.Is(err, timecond.ErrNotTime):
		c.report.NotTime++
	default:
		c.report.Unparsed++
		c.example("%s %d %s=%s", kind, id, key, v)
	}
	return nil
}

// example keeps the first few unparsed conditions for the report.
func (c *conditions) example(format string, args ...any) {
	if len(c.report.Examples) < 10 {
		c.report.Examples = append(c.report.Examples, fmt.Sprintf(format, args...))
	}
}

// wayRules returns the time rules of a way's conditional tags that the
// profiles read, and counts every conditional tag it carries.
func (c *conditions) wayRules(id int64, tags map[string]string) []keyedRule {
	var out []keyedRule
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		base, ok := strings.CutSuffix(k, ":conditional")
		if !ok {
			continue
		}
		if !slices.Contains(wayCondKeys, base) {
			c.report.Found[k]++
			c.report.Ignored++
			continue
		}
		for _, r := range c.parse("way", id, k, tags[k]) {
			out = append(out, keyedRule{base, r})
		}
	}
	return out
}

// applyRules returns tags as they read in state (bit i: rules[i] in force):
// for each key, the last rule in force sets its value.
func applyRules(tags map[string]string, rules []keyedRule, state int) map[string]string {
	out := maps.Clone(tags)
	for i, r := range rules {
		if state&(1<<i) != 0 {
			if r.Value == "none" {
				delete(out, r.key)
			} else {
				out[r.key] = r.Value
			}
		}
	}
	return out
}

// ids returns the schedule ids of rules, in order.
func (c *conditions) ids(rules []keyedRule) []uint32 {
	out := make([]uint32, len(rules))
	for i, r := range rules {
		out[i] = c.schedule(r.When)
	}
	return out
}

// tooMany counts and reports an element whose rules exceed graph.MaxRules.
func (c *conditions) tooMany(kind string, id int64, n int) {
	c.report.TooManyRules++
	c.example("%s %d: %d time rules, at most %d are modelled", kind, id, n, graph.MaxRules)
}

// waySpeeds evaluates a way for every profile, in every state of its rules
// when it has any: the speeds, and the bit mask of the profiles for which
// the way is destination-only (profile.Way.Destination). ok is false when no
// profile may use it in any state.
func (c *conditions) waySpeeds(id int64, tags map[string]string, profiles []*profile.Profile) ([][2]float32, uint32, *graph.WayCond, bool) {
	rules := c.wayRules(id, tags)
	if len(rules) > graph.MaxRules {
		c.tooMany("way", id, len(rules))
		rules = nil
	}
	base, dest, usable := speedsFor(tags, profiles)
	if len(rules) == 0 {
		return base, dest, nil, usable
	}
	wc := &graph.WayCond{Speeds: make([][][2]float32, 1<<len(rules)), Destination: make([]uint32, 1<<len(rules))}
	varies := false
	for st := range wc.Speeds {
		s, d, u := speedsFor(applyRules(tags, rules, st), profiles)
		wc.Speeds[st], wc.Destination[st], usable = s, d, usable || u
		varies = varies || !slices.Equal(s, base) || d != dest
	}
	if !varies {
		return base, dest, nil, usable
	}
	c.report.Ways++
	wc.Schedules = c.ids(rules)
	return base, dest, wc, usable
}

func speedsFor(tags map[string]string, profiles []*profile.Profile) ([][2]float32, uint32, bool) {
	speeds := make([][2]float32, len(profiles))
	var dest uint32
	usable := false
	for i, p := range profiles {
		r := p.Way(tags)
		if r.Forward {
			speeds[i][0] = float32(r.SpeedForward)
		}
		if r.Backward {
			speeds[i][1] = float32(r.SpeedBackward)
		}
		if r.Destination {
			dest |= 1 << i
		}
		usable = usable || r.Forward || r.Backward
	}
	return speeds, dest, usable
}
