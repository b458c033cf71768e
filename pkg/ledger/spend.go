package ledger

import "time"

// spend counts an account's spending in the current UTC day and month:
// credits count in the day and month they were reserved in, from Reserve
// on (so outstanding holds count against the caps), and come off again if
// released. The counters roll over lazily: a counter whose Day (or Month)
// is not the current one counts as zero.
type spend struct {
	Day        int   `json:"day"` // yyyymmdd, UTC
	DaySpent   int64 `json:"day_spent"`
	Month      int   `json:"month"` // yyyymm, UTC
	MonthSpent int64 `json:"month_spent"`
}

func dayOf(t time.Time) int {
	y, m, d := t.UTC().Date()
	return y*10000 + int(m)*100 + d
}

func monthOf(t time.Time) int {
	y, m, _ := t.UTC().Date()
	return y*100 + int(m)
}

// at returns the counters as seen at time t.
func (s spend) at(t time.Time) spend {
	if d := dayOf(t); s.Day != d {
		s.Day, s.DaySpent = d, 0
	}
	if m := monthOf(t); s.Month != m {
		s.Month, s.MonthSpent = m, 0
	}
	return s
}

// plus counts credits in the given UTC day and month (yyyymmdd, yyyymm)
// when those are the counters' own or newer; credits of a day the counters
// have already left behind count nowhere (that day is over).
func (s spend) plus(day, month int, credits int64) spend {
	switch {
	case s.Day == day:
		s.DaySpent += credits
	case day > s.Day:
		s.Day, s.DaySpent = day, credits
	}
	switch {
	case s.Month == month:
		s.MonthSpent += credits
	case month > s.Month:
		s.Month, s.MonthSpent = month, credits
	}
	return s
}

// minus takes back credits counted by plus, if their day and month are
// still the counters' own.
func (s spend) minus(day, month int, credits int64) spend {
	if s.Day == day {
		s.DaySpent -= credits
	}
	if s.Month == month {
		s.MonthSpent -= credits
	}
	return s
}

// capCheck decides whether cost fits the available balance (credits not
// charged nor held) and the caps, given spend counters that already count
// outstanding holds. It returns nil when the request fits.
func capCheck(accountID string, available int64, caps Caps, s spend, cost int64) *InsufficientCreditsError {
	if cost > available {
		return &InsufficientCreditsError{AccountID: accountID, Balance: max(available, 0), Cost: cost}
	}
	if caps.Daily > 0 && s.DaySpent+cost > caps.Daily {
		return &InsufficientCreditsError{AccountID: accountID, Balance: available, Cost: cost,
			Cap: CapDaily, CapRemaining: max(caps.Daily-s.DaySpent, 0)}
	}
	if caps.Monthly > 0 && s.MonthSpent+cost > caps.Monthly {
		return &InsufficientCreditsError{AccountID: accountID, Balance: available, Cost: cost,
			Cap: CapMonthly, CapRemaining: max(caps.Monthly-s.MonthSpent, 0)}
	}
	return nil
}
