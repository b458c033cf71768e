package embedded

import (
	"sync"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// liveAccounts is the embedded store's in-memory view of the accounts that
// have been metered since the file was opened: their durable balance, caps,
// status and spend counters, plus the holds of outstanding reservations,
// which exist nowhere else. Because bbolt locks the file for this process,
// nobody else can change an account behind this view's back.
//
// Invariant: every change to a loaded account is applied to the file first
// and to the view second, as a delta under the account's mutex; a Commit
// keeps its credits in held until both are done, so available credits
// (balance - held) never overstate the file. Loaded accounts stay in memory
// until Close (a few hundred bytes each). Entries are never removed, not
// even for ids that name no account: two entries for one account could
// both hand out the same credits.
type liveAccounts struct {
	mu       sync.Mutex
	accounts map[string]*liveAccount
}

type liveAccount struct {
	mu     sync.Mutex
	loaded bool
	status ledger.AccountStatus
	// balance is the durable balance, minus commits not yet applied here.
	balance int64
	// held is the sum of outstanding holds and of commits in flight.
	held int64
	caps ledger.Caps
	// spend counts commits and outstanding holds (see spend).
	spend shared.Spend
	holds map[int64]hold // by reservation id
}

// hold is an outstanding reservation: credits and the day and month they
// count in, and the journal write of its charge, started when it was made.
type hold struct {
	credits    int64
	day, month int
	charge     *commitJob
}

func newLiveAccounts() *liveAccounts {
	return &liveAccounts{accounts: make(map[string]*liveAccount)}
}

// get returns the account's entry, creating an unloaded one if needed.
func (l *liveAccounts) get(accountID string) *liveAccount {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.accounts[accountID]
	if !ok {
		a = &liveAccount{holds: make(map[int64]hold)}
		l.accounts[accountID] = a
	}
	return a
}

// peek returns the entry if it exists, without creating one.
func (l *liveAccounts) peek(accountID string) (*liveAccount, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.accounts[accountID]
	return a, ok
}

// load fills the entry from the durable record. Call with a.mu held.
func (a *liveAccount) load(rec accountRecord) {
	a.loaded = true
	a.status = rec.Status
	a.balance = rec.Balance
	a.caps = rec.Caps
	a.spend = rec.Spend
}
