package timecond

import (
	"fmt"
	"strings"
)

var (
	weekdays = [...]string{"Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"}
	months   = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// lexer walks one rule's text.
type lexer struct {
	s   string
	pos int
}

func (l *lexer) skipSpace() {
	for l.pos < len(l.s) && (l.s[l.pos] == ' ' || l.s[l.pos] == '\t') {
		l.pos++
	}
}

func (l *lexer) done() bool { l.skipSpace(); return l.pos >= len(l.s) }

// eat consumes c if it comes next (after spaces).
func (l *lexer) eat(c byte) bool {
	l.skipSpace()
	if l.pos < len(l.s) && l.s[l.pos] == c {
		l.pos++
		return true
	}
	return false
}

// word returns the next run of letters without consuming it.
func (l *lexer) word() string {
	l.skipSpace()
	end := l.pos
	for end < len(l.s) && (l.s[end] >= 'a' && l.s[end] <= 'z' || l.s[end] >= 'A' && l.s[end] <= 'Z') {
		end++
	}
	return l.s[l.pos:end]
}

// number consumes 1 or 2 digits.
func (l *lexer) number() (int, bool) {
	l.skipSpace()
	n, digits := 0, 0
	for l.pos < len(l.s) && l.s[l.pos] >= '0' && l.s[l.pos] <= '9' && digits < 2 {
		n = 10*n + int(l.s[l.pos]-'0')
		l.pos++
		digits++
	}
	return n, digits > 0
}

func (l *lexer) peekDigit() bool {
	l.skipSpace()
	return l.pos < len(l.s) && l.s[l.pos] >= '0' && l.s[l.pos] <= '9'
}

func index(names []string, w string) int {
	for i, n := range names {
		if strings.EqualFold(n, w) {
			return i
		}
	}
	return -1
}

// parseRule reads one rule: [dates] [weekdays] [times] [modifier], or 24/7.
func parseRule(text string) (rule, error) {
	l := &lexer{s: strings.TrimSpace(text)}
	r := rule{anyDay: true}
	if l.s == "24/7" {
		return r, nil
	}
	if index(months[:], l.word()) >= 0 {
		if err := l.dates(&r); err != nil {
			return rule{}, err
		}
	}
	if w := l.word(); index(weekdays[:], w) >= 0 || w == "PH" || w == "SH" {
		if err := l.weekdays(&r); err != nil {
			return rule{}, err
		}
	}
	if l.peekDigit() {
		if err := l.spans(&r); err != nil {
			return rule{}, err
		}
	}
	switch w := l.word(); strings.ToLower(w) {
	case "off", "closed":
		r.off = true
		l.pos += len(w)
	case "open":
		l.pos += len(w)
	}
	if !l.done() {
		return rule{}, fmt.Errorf("unsupported at %q", l.s[l.pos:])
	}
	return r, nil
}

// weekdays reads Mo-Fr,Su,PH style lists. PH and SH select no day (no
// holiday calendar).
func (l *lexer) weekdays(r *rule) error {
	r.anyDay = false
	for {
		w := l.word()
		l.pos += len(w)
		if w == "PH" || w == "SH" {
			if !l.eat(',') {
				return nil
			}
			continue
		}
		from := index(weekdays[:], w)
		if from < 0 {
			return fmt.Errorf("weekday expected at %q", l.s[l.pos-len(w):])
		}
		to := from
		if l.eat('-') {
			w := l.word()
			l.pos += len(w)
			if to = index(weekdays[:], w); to < 0 {
				return fmt.Errorf("weekday expected after '-' in %q", l.s)
			}
		}
		for d := from; ; d = (d + 1) % 7 {
			r.days |= 1 << d
			if d == to {
				break
			}
		}
		if l.peekNth() {
			return fmt.Errorf("nth weekday (%q) is not supported", l.s)
		}
		if !l.eat(',') {
			return nil
		}
	}
}

func (l *lexer) peekNth() bool {
	l.skipSpace()
	return l.pos < len(l.s) && l.s[l.pos] == '['
}

// spans reads 07:00-09:00,16:00-18:00 style lists.
func (l *lexer) spans(r *rule) error {
	for {
		from, err := l.clock()
		if err != nil {
			return err
		}
		if !l.eat('-') {
			return fmt.Errorf("time span needs an end in %q", l.s)
		}
		to, err := l.clock()
		if err != nil {
			return err
		}
		if from >= minutesPerDay {
			return fmt.Errorf("span cannot start at 24:00 in %q", l.s)
		}
		if to <= from {
			to += minutesPerDay // past midnight
		}
		r.spans = append(r.spans, span{uint16(from), uint16(to)})
		if !l.eat(',') {
			return nil
		}
	}
}

// clock reads H:MM or HH:MM, up to 24:00, as minutes after midnight.
func (l *lexer) clock() (int, error) {
	h, ok := l.number()
	if !ok || l.pos >= len(l.s) || l.s[l.pos] != ':' {
		return 0, fmt.Errorf("time HH:MM expected in %q", l.s)
	}
	l.pos++
	start := l.pos
	m, ok := l.number()
	if !ok || l.pos-start != 2 || m > 59 || h > 24 || h == 24 && m != 0 {
		return 0, fmt.Errorf("bad time in %q", l.s)
	}
	if l.pos < len(l.s) && l.s[l.pos] == '+' {
		return 0, fmt.Errorf("open-ended time is not supported in %q", l.s)
	}
	return 60*h + m, nil
}
