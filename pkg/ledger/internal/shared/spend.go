package shared

import (
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// Spend counts an account's spending in the current UTC day and month:
// credits count in the day and month they were reserved in, from Reserve
// on (so outstanding holds count against the caps), and come off again if
// released. The counters roll over lazily: a counter whose Day (or Month)
// is not the current one counts as zero.
type Spend struct {
	Day        int   `json:"day"` // yyyymmdd, UTC
	DaySpent   int64 `json:"day_spent"`
	Month      int   `json:"month"` // yyyymm, UTC
	MonthSpent int64 `json:"month_spent"`
}

func DayOf(t time.Time) int {
	y, m, d := t.UTC().Date()
	return y*10000 + int(m)*100 + d
}

func MonthOf(t time.Time) int {
	y, m, _ := t.UTC().Date()
	return y*100 + int(m)
}

// at returns the counters as seen at time t.
func (s Spend) At(t time.Time) Spend {
	if d := DayOf(t); s.Day != d {
		s.Day, s.DaySpent = d, 0
	}
	if m := MonthOf(t); s.Month != m {
		s.Month, s.MonthSpent = m, 0
	}
	return s
}

// plus counts credits in the given UTC day and month (yyyymmdd, yyyymm)
// when those are the counters' own or newer; credits of a day the counters
// have already left behind count nowhere (that day is over).
func (s Spend) Plus(day, month int, credits int64) Spend {
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
func (s Spend) Minus(day, month int, credits int64) Spend {
	if s.Day == day {
		s.DaySpent -= credits
	}
	if s.Month == month {
		s.MonthSpent -= credits
	}
	return s
}

// CapCheck decides whether cost fits the available balance (credits not
// charged nor held) and the caps, given Spend counters that already count
// outstanding holds. It returns nil when the request fits.
func CapCheck(accountID string, available int64, caps ledger.Caps, s Spend, cost int64) *ledger.InsufficientCreditsError {
	if cost > available {
		return &ledger.InsufficientCreditsError{AccountID: accountID, Balance: max(available, 0), Cost: cost}
	}
	if caps.Daily > 0 && s.DaySpent+cost > caps.Daily {
		return &ledger.InsufficientCreditsError{AccountID: accountID, Balance: available, Cost: cost,
			Cap: ledger.CapDaily, CapRemaining: max(caps.Daily-s.DaySpent, 0)}
	}
	if caps.Monthly > 0 && s.MonthSpent+cost > caps.Monthly {
		return &ledger.InsufficientCreditsError{AccountID: accountID, Balance: available, Cost: cost,
			Cap: ledger.CapMonthly, CapRemaining: max(caps.Monthly-s.MonthSpent, 0)}
	}
	return nil
}
