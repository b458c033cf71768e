package shared

import (
	"fmt"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// ReportRange checks a report's days and returns their yyyymmdd numbers
// and the instants that bound them: [start, end).
func ReportRange(accountID string, from, to time.Time) (fromDay, toDay int, start, end time.Time, err error) {
	fromDay, toDay = DayOf(from), DayOf(to)
	if fromDay > toDay {
		return 0, 0, time.Time{}, time.Time{}, fmt.Errorf("%w: usage report of account %s: from %s is after to %s",
			ledger.ErrInvalidArgument, accountID, DayString(fromDay), DayString(toDay))
	}
	y, m, d := from.UTC().Date()
	start = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	y, m, d = to.UTC().Date()
	end = time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
	return fromDay, toDay, start, end, nil
}

// DayString writes a yyyymmdd number as YYYY-MM-DD.
func DayString(day int) string {
	return fmt.Sprintf("%04d-%02d-%02d", day/10000, day/100%100, day%100)
}

// FinishReport sums the days into Totals and Charged and closes the balance.
func FinishReport(r *ledger.UsageReport) {
	if r.Days == nil {
		r.Days = []ledger.DayUsage{}
	}
	for _, d := range r.Days {
		r.Totals.Requests += d.Requests
		r.Totals.Credits += d.Credits
	}
	r.Balance.Charged = r.Totals.Credits
	r.Balance.Closing = r.Balance.Opening + r.Balance.Granted - r.Balance.Charged
}
