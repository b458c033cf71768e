package timecond

import "fmt"

// daysIn is the last day of each month, February as in a leap year: a
// range ending "Feb 29" is valid every year.
var daysIn = [...]int{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// dates reads a list of month and date ranges: Jan-Mar, Aug, Mar 15-Oct 31,
// Dec 24-Jan 06, Mar 15-31, Dec 25.
func (l *lexer) dates(r *rule) error {
	for {
		d, err := l.dateRange()
		if err != nil {
			return err
		}
		r.dates = append(r.dates, d)
		if !l.eat(',') {
			return nil
		}
	}
}

func (l *lexer) dateRange() (dateRange, error) {
	m1, d1, hasDay, err := l.monthDay()
	if err != nil {
		return dateRange{}, err
	}
	from := key(m1, max(d1, 1))
	last := key(m1, daysIn[m1-1])
	if hasDay {
		last = from
	}
	if !l.eat('-') {
		return dateRange{from, last}, nil
	}
	if hasDay && l.peekDigit() { // Mar 15-31
		d2, _ := l.number()
		if d2 < 1 || d2 > daysIn[m1-1] {
			return dateRange{}, fmt.Errorf("bad day %d in %q", d2, l.s)
		}
		return dateRange{from, key(m1, d2)}, nil
	}
	m2, d2, hasDay2, err := l.monthDay()
	if err != nil {
		return dateRange{}, err
	}
	if !hasDay2 {
		d2 = daysIn[m2-1]
	}
	return dateRange{from, key(m2, d2)}, nil
}

// monthDay reads a month name and an optional day of the month.
func (l *lexer) monthDay() (month, day int, hasDay bool, err error) {
	w := l.word()
	month = index(months[:], w) + 1
	if month == 0 {
		return 0, 0, false, fmt.Errorf("month expected at %q", l.s[l.pos:])
	}
	l.pos += len(w)
	// A day follows only when the digits are not a time (07:00).
	save := l.pos
	if l.peekDigit() {
		d, _ := l.number()
		if l.pos < len(l.s) && l.s[l.pos] == ':' {
			l.pos = save
			return month, 0, false, nil
		}
		if d < 1 || d > daysIn[month-1] {
			return 0, 0, false, fmt.Errorf("bad day %d in %q", d, l.s)
		}
		return month, d, true, nil
	}
	return month, 0, false, nil
}

func key(month, day int) uint16 { return uint16(month*32 + day) }
