package ledger

import "time"

// spend counts an account's charges in the current UTC day and month. The
// counters roll over lazily: a counter whose Day (or Month) is not the
// current one counts as zero.
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

// add records a charge made at time t.
func (s spend) add(t time.Time, credits int64) spend {
	s = s.at(t)
	s.DaySpent += credits
	s.MonthSpent += credits
	return s
}

// capCheck decides whether cost fits the balance and caps. held is what
// outstanding reservations already hold; it counts against the caps too.
// It returns nil when the request fits.
func capCheck(accountID string, balance, held int64, caps Caps, s spend, cost int64) *InsufficientCreditsError {
	available := balance - held
	if cost > available {
		return &InsufficientCreditsError{AccountID: accountID, Balance: max(available, 0), Cost: cost}
	}
	if caps.Daily > 0 && s.DaySpent+held+cost > caps.Daily {
		return &InsufficientCreditsError{AccountID: accountID, Balance: available, Cost: cost,
			Cap: CapDaily, CapRemaining: max(caps.Daily-s.DaySpent-held, 0)}
	}
	if caps.Monthly > 0 && s.MonthSpent+held+cost > caps.Monthly {
		return &InsufficientCreditsError{AccountID: accountID, Balance: available, Cost: cost,
			Cap: CapMonthly, CapRemaining: max(caps.Monthly-s.MonthSpent-held, 0)}
	}
	return nil
}
