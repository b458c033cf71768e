package timecond

import (
	"fmt"
	"strings"
	"time"
)

const minutesPerDay = 24 * 60

// Schedule is a parsed opening_hours value. The zero Schedule is never in
// force.
type Schedule struct {
	text  string
	rules []rule
}

// rule is one ";"-separated part of a schedule.
type rule struct {
	dates  []dateRange // empty: every date
	days   uint8       // weekdays selected, Monday = bit 0
	anyDay bool        // no weekday selector: every day
	spans  []span      // empty: the whole day
	off    bool
}

// dateRange is an inclusive range of month-day keys (month*32 + day); from >
// to wraps over new year.
type dateRange struct{ from, to uint16 }

// span is [from, to) in minutes after the day's midnight; to may pass 1440
// when the span runs past midnight.
type span struct{ from, to uint16 }

// Parse reads an opening_hours value in the subset the package documents.
func Parse(text string) (Schedule, error) {
	s := Schedule{text: strings.TrimSpace(text)}
	if s.text == "" {
		return Schedule{}, fmt.Errorf("timecond: empty schedule")
	}
	for _, part := range strings.Split(s.text, ";") {
		if strings.TrimSpace(part) == "" {
			continue // a trailing or doubled ";"
		}
		r, err := parseRule(part)
		if err != nil {
			return Schedule{}, fmt.Errorf("timecond: %q: %w", s.text, err)
		}
		s.rules = append(s.rules, r)
	}
	if len(s.rules) == 0 {
		return Schedule{}, fmt.Errorf("timecond: %q: no rule", s.text)
	}
	return s, nil
}

// MustParse is Parse for literals known to be valid; it panics otherwise.
func MustParse(text string) Schedule {
	s, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return s
}

// String returns the schedule's text as parsed.
func (s Schedule) String() string { return s.text }

// Active reports whether the schedule is in force at t, read as local time
// in t's location. A span past midnight started by the previous day's rule
// counts: "Mo 22:00-02:00" is in force on Tuesday at 01:00.
func (s Schedule) Active(t time.Time) bool {
	minute := uint16(t.Hour()*60 + t.Minute())
	if r := s.ruleFor(t); r != nil && r.open(minute) {
		return true
	}
	if r := s.ruleFor(t.AddDate(0, 0, -1)); r != nil && r.open(minute+minutesPerDay) {
		return true
	}
	return false
}

// ruleFor returns the rule that decides day t: the last one selecting it.
func (s Schedule) ruleFor(t time.Time) *rule {
	wd := uint8(1) << ((int(t.Weekday()) + 6) % 7)
	key := uint16(t.Month())*32 + uint16(t.Day())
	var found *rule
	for i := range s.rules {
		if r := &s.rules[i]; r.selects(wd, key) {
			found = r
		}
	}
	return found
}

func (r *rule) selects(wd uint8, key uint16) bool {
	if !r.anyDay && r.days&wd == 0 {
		return false
	}
	if len(r.dates) == 0 {
		return true
	}
	for _, d := range r.dates {
		if d.from <= d.to && key >= d.from && key <= d.to || d.from > d.to && (key >= d.from || key <= d.to) {
			return true
		}
	}
	return false
}

// open reports whether minute m of the rule's day (m ≥ 1440 for the next
// morning) lies in one of its spans.
func (r *rule) open(m uint16) bool {
	if r.off {
		return false
	}
	if len(r.spans) == 0 {
		return m < minutesPerDay
	}
	for _, s := range r.spans {
		if m >= s.from && m < s.to {
			return true
		}
	}
	return false
}
