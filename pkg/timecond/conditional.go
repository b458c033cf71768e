package timecond

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotTime marks a conditional value whose condition is not (only) a time:
// destination, wet, weight>7.5, or a time joined to one of those by AND.
var ErrNotTime = errors.New("timecond: condition is not a time")

// Rule is one "value @ condition" part of a conditional tag: Value applies
// while When is in force. Of several rules in force, the last one wins.
type Rule struct {
	Value string
	When  Schedule
}

// ParseConditional reads a conditional tag value such as
// "no @ (Mo-Fr 07:00-09:00); destination @ (Sa 08:00-12:00)". It fails with
// an error wrapping ErrNotTime when some condition is not a time, and with
// another error when the syntax is not understood; either way a caller
// should ignore the whole tag.
func ParseConditional(v string) ([]Rule, error) {
	parts, err := splitTop(v)
	if err != nil {
		return nil, err
	}
	rules := make([]Rule, 0, len(parts))
	for _, p := range parts {
		value, cond, ok := strings.Cut(p, "@")
		value, cond = strings.TrimSpace(value), strings.TrimSpace(cond)
		if !ok || value == "" || cond == "" {
			return nil, fmt.Errorf("timecond: %q: want \"value @ condition\"", p)
		}
		cond = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(cond, "("), ")"))
		if !looksLikeTime(cond) {
			return nil, fmt.Errorf("%w: %q", ErrNotTime, cond)
		}
		s, err := Parse(cond)
		if err != nil {
			return nil, err
		}
		rules = append(rules, Rule{Value: value, When: s})
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("timecond: %q: no rule", v)
	}
	return rules, nil
}

// splitTop splits at the semicolons outside parentheses: those separate
// rules, the ones inside separate a schedule's own rules.
func splitTop(v string) ([]string, error) {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return nil, fmt.Errorf("timecond: %q: unbalanced parentheses", v)
			}
		case ';':
			if depth == 0 {
				parts = appendPart(parts, v[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("timecond: %q: unbalanced parentheses", v)
	}
	return appendPart(parts, v[start:]), nil
}

func appendPart(parts []string, p string) []string {
	if p = strings.TrimSpace(p); p != "" {
		parts = append(parts, p)
	}
	return parts
}

// looksLikeTime tells a time condition from the other kinds OSM uses: it
// starts with a digit, a weekday, a month or another opening_hours word,
// and has no AND
// and no comparison.
func looksLikeTime(c string) bool {
	if strings.Contains(c, " AND ") || strings.ContainsAny(c, "<>=") {
		return false
	}
	if c != "" && c[0] >= '0' && c[0] <= '9' {
		return true
	}
	l := &lexer{s: c}
	w := l.word()
	return index(weekdays[:], w) >= 0 || index(months[:], w) >= 0 || index(timeWords[:], w) >= 0
}

// timeWords start a time condition outside the supported subset too, so
// that it is reported as unparsed rather than as not about time.
var timeWords = [...]string{"PH", "SH", "sunrise", "sunset", "dawn", "dusk", "week", "easter"}

// Legacy turns the older day_on/day_off/hour_on/hour_off tags of a turn
// restriction into a schedule: day_on=Monday day_off=Friday hour_on=07:00
// hour_off=09:00 is "Mo-Fr 07:00-09:00".
func Legacy(dayOn, dayOff, hourOn, hourOff string) (Schedule, error) {
	var b strings.Builder
	if dayOn != "" {
		from, err := legacyDay(dayOn)
		if err != nil {
			return Schedule{}, err
		}
		b.WriteString(from)
		if dayOff != "" {
			to, err := legacyDay(dayOff)
			if err != nil {
				return Schedule{}, err
			}
			b.WriteString("-" + to)
		}
	}
	if hourOn != "" || hourOff != "" {
		if hourOn == "" || hourOff == "" {
			return Schedule{}, fmt.Errorf("timecond: hour_on %q needs hour_off %q and the reverse", hourOn, hourOff)
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSpace(hourOn) + "-" + strings.TrimSpace(hourOff))
	}
	return Parse(b.String())
}

// legacyDay maps "Monday", "monday" or "Mo" to "Mo".
func legacyDay(d string) (string, error) {
	d = strings.TrimSpace(d)
	for _, w := range weekdays {
		if len(d) >= 2 && strings.EqualFold(d[:2], w) {
			return w, nil
		}
	}
	return "", fmt.Errorf("timecond: %q is not a weekday", d)
}
