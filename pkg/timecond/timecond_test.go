package timecond

import (
	"errors"
	"testing"
	"time"
)

// at is a local time in 2026: Nov 23 is a Monday.
func at(month time.Month, day, hour, minute int) time.Time {
	return time.Date(2026, month, day, hour, minute, 0, 0, time.UTC)
}

func TestActive(t *testing.T) {
	tue8, tue10, sat8 := at(11, 24, 8, 0), at(11, 24, 10, 0), at(11, 28, 8, 0)
	for _, tc := range []struct {
		schedule string
		t        time.Time
		want     bool
	}{
		{"Mo-Fr 07:00-09:00", tue8, true},
		{"Mo-Fr 07:00-09:00", tue10, false},
		{"Mo-Fr 07:00-09:00", sat8, false},
		{"Mo-Fr 07:00-09:00", at(11, 24, 9, 0), false}, // end is exclusive
		{"Mo-Fr 07:00-09:00", at(11, 24, 7, 0), true},
		{"Mo-Fr 07:00-09:00; PH off", tue8, true}, // no holiday calendar: PH off changes nothing
		{"PH 07:00-09:00", tue8, false},
		{"Sa,Su", sat8, true},
		{"Sa,Su", tue8, false},
		{"Fr-Mo 10:00-12:00", at(11, 23, 11, 0), true}, // wraps over the weekend: Monday
		{"Fr-Mo 10:00-12:00", at(11, 25, 11, 0), false},
		{"07:00-09:00", sat8, true},
		{"06:30-08:30,16:30-18:30", at(11, 24, 17, 0), true},
		{"06:30-08:30,16:30-18:30", at(11, 24, 12, 0), false},
		{"Mo-Su 21:00-9:00", at(11, 24, 23, 30), true},
		{"Mo-Su 21:00-9:00", at(11, 24, 3, 0), true},
		{"Mo-Su 21:00-9:00", at(11, 24, 9, 30), false},
		{"Mo 22:00-02:00", at(11, 24, 1, 0), true},  // Tuesday 01:00: Monday's span
		{"Mo 22:00-02:00", at(11, 23, 1, 0), false}, // Monday 01:00: Sunday has no rule
		{"Mo 22:00-02:00", at(11, 24, 22, 30), false},
		{"0:00-06:00", at(11, 24, 5, 59), true},
		{"00:00-24:00", at(11, 24, 23, 59), true},
		{"24/7", sat8, true},
		{"Mo-Sa 08:00-18:00; Sa 10:00-12:00", sat8, false}, // Saturday replaced
		{"Mo-Sa 08:00-18:00; Sa 10:00-12:00", at(11, 28, 11, 0), true},
		{"Mo-Sa 08:00-18:00; Sa 10:00-12:00", tue10, true},
		{"Mo-Fr 08:00-18:00; We off", at(11, 25, 10, 0), false},
		{"Jun-Aug Sa,Su 10:00-18:00", at(7, 4, 11, 0), true},
		{"Jun-Aug Sa,Su 10:00-18:00", sat8, false},
		{"Dec-Feb", at(1, 15, 12, 0), true},
		{"Dec-Feb", at(3, 1, 12, 0), false},
		{"Mar 15-Oct 31", at(10, 31, 12, 0), true},
		{"Mar 15-Oct 31", at(3, 14, 12, 0), false},
		{"Dec 24-Jan 06 08:00-20:00", at(1, 2, 9, 0), true},
		{"Dec 24-Jan 06 08:00-20:00", at(1, 7, 9, 0), false},
		{"Mar 15-31", at(3, 20, 0, 0), true},
		{"Dec 25", at(12, 25, 12, 0), true},
		{"Dec 25", at(12, 26, 12, 0), false},
		{"Mo-Fr 07:00-09:00 off", tue8, false},
	} {
		s, err := Parse(tc.schedule)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.schedule, err)
			continue
		}
		if got := s.Active(tc.t); got != tc.want {
			t.Errorf("%q at %s: active %v, want %v", tc.schedule, tc.t.Format("Mon Jan 2 15:04"), got, tc.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, text := range []string{
		"", ";", "sunrise-sunset", "Mo-Fr 07:00", "Mo-Fr 7-9", "Mo[1] 10:00-12:00", "25:00-26:00",
		"10:60-11:00", "24:00-02:00", "Mo-Fr 07:00+", "week 01-10", "2026 Jan", "Feb 30", "Mo-Xy",
		"Mo-Fr 07:00-09:00 || closed", "\"comment\"", "Mo-Fr 07:00-09:00, Sa 10:00-12:00",
	} {
		if s, err := Parse(text); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", text, s)
		}
	}
}

func TestParseConditional(t *testing.T) {
	rules, err := ParseConditional("no @ (Mo-Fr 07:00-09:00); destination @ (Sa 08:00-12:00)")
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || rules[0].Value != "no" || rules[1].Value != "destination" ||
		rules[0].When.String() != "Mo-Fr 07:00-09:00" || !rules[1].When.Active(at(11, 28, 9, 0)) {
		t.Fatalf("got %+v", rules)
	}
	// Semicolons inside the parentheses belong to the schedule.
	rules, err = ParseConditional("30 @ (Mo-Fr 07:00-18:00; PH off)")
	if err != nil || len(rules) != 1 || rules[0].Value != "30" || rules[0].When.String() != "Mo-Fr 07:00-18:00; PH off" {
		t.Fatalf("got %+v, %v", rules, err)
	}
	rules, err = ParseConditional("yes @ Mo-Su 21:00-9:00")
	if err != nil || len(rules) != 1 || !rules[0].When.Active(at(11, 24, 22, 0)) {
		t.Fatalf("bare condition: %+v, %v", rules, err)
	}
	for _, v := range []string{"none @ destination", "no @ wet", "no @ (weight>7.5)", "no @ CAM",
		"no @ (Mo-Fr 07:00-09:00 AND weight>3.5)", "delivery @ (occupants>1)"} {
		if _, err := ParseConditional(v); !errors.Is(err, ErrNotTime) {
			t.Errorf("ParseConditional(%q): %v, want ErrNotTime", v, err)
		}
	}
	for _, v := range []string{"no", "@ (Mo 10:00-12:00)", "no @ ((Mo 10:00-12:00)", "no @ (sunrise-sunset)", "no @"} {
		if _, err := ParseConditional(v); err == nil || errors.Is(err, ErrNotTime) {
			t.Errorf("ParseConditional(%q): %v, want a syntax error", v, err)
		}
	}
}

func TestLegacy(t *testing.T) {
	s, err := Legacy("Monday", "Friday", "07:00", "09:00")
	if err != nil || s.String() != "Mo-Fr 07:00-09:00" {
		t.Fatalf("got %q, %v", s, err)
	}
	if s, err := Legacy("sunday", "", "", ""); err != nil || s.String() != "Su" {
		t.Fatalf("got %q, %v", s, err)
	}
	if _, err := Legacy("", "", "07:00", ""); err == nil {
		t.Fatal("hour_on without hour_off accepted")
	}
	if _, err := Legacy("Funday", "", "", ""); err == nil {
		t.Fatal("bad day accepted")
	}
}

// FuzzParseConditional: tags come from anyone's OSM edits.
func FuzzParseConditional(f *testing.F) {
	for _, s := range []string{"no @ (Mo-Fr 07:00-09:00)", "30 @ (Mo-Fr 07:00-18:00; PH off)", "yes @ Mo-Su 21:00-9:00",
		"no @ (Dec 24-Jan 06 08:00-20:00)", "x @ (24/7)", "none @ destination", "a @ (Mar 15-31 Sa,Su 22:00-02:00)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		rules, err := ParseConditional(v)
		if err != nil {
			return
		}
		for _, r := range rules {
			for h := 0; h < 48; h++ {
				r.When.Active(at(2, 28, 0, 0).Add(time.Duration(h) * 37 * time.Minute))
			}
			if _, err := Parse(r.When.String()); err != nil {
				t.Fatalf("schedule %q re-parse: %v", r.When.String(), err)
			}
		}
	})
}
