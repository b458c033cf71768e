package ledger

import ()

// UsageReport is an account's usage over a range of UTC days, for an
// invoice: requests and credits per day and operation, and the balance
// movements they reconcile with. A charge counts on the UTC day of its
// usage record's time (Usage.At), a grant on the UTC day it was made.
// Opening + Granted - Charged = Closing, Charged is the sum of Days'
// credits, and for a range that ends today Closing is the account's
// balance (Account.Balance).
type UsageReport struct {
	AccountID string     `json:"account_id"`
	From      string     `json:"from"` // YYYY-MM-DD, the first day included
	To        string     `json:"to"`   // YYYY-MM-DD, the last day included
	Days      []DayUsage `json:"days"` // by date, then operation; days without charges are left out
	// Totals sums Days.
	Totals  OperationTotals `json:"totals"`
	Balance BalanceMovement `json:"balance"`
}

// DayUsage is one operation's charges on one UTC day.
type DayUsage struct {
	Date      string `json:"date"` // YYYY-MM-DD
	Operation string `json:"operation"`
	Requests  int64  `json:"requests"`
	Credits   int64  `json:"credits"`
}

// BalanceMovement is how an account's balance moved over a report's days.
type BalanceMovement struct {
	Opening int64 `json:"opening"` // grants minus charges before the first day
	Granted int64 `json:"granted"` // credits added during the days
	Charged int64 `json:"charged"` // credits charged during the days
	Closing int64 `json:"closing"` // Opening + Granted - Charged
}
