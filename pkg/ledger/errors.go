package ledger

import (
	"errors"
	"fmt"
)

// Errors returned by Authenticate. All mean HTTP 401.
var (
	ErrMalformedKey = errors.New("ledger: malformed API key")
	ErrUnknownKey   = errors.New("ledger: unknown API key")
	ErrRevokedKey   = errors.New("ledger: revoked API key")
)

// Errors returned by Reserve, Commit and Release.
var (
	// ErrInsufficientCredits is matched (errors.Is) by every
	// *InsufficientCreditsError: HTTP 402.
	ErrInsufficientCredits = errors.New("ledger: insufficient credits")
	// ErrAccountSuspended means the account is suspended: HTTP 403.
	ErrAccountSuspended = errors.New("ledger: account suspended")
	// ErrUnknownReservation means the reservation was already committed,
	// released or (PostgreSQL) expired.
	ErrUnknownReservation = errors.New("ledger: unknown reservation")
	// ErrDuplicateRequest means a usage record with this request id exists.
	ErrDuplicateRequest = errors.New("ledger: duplicate request id")
)

// Errors returned by any method.
var (
	// ErrUnavailable wraps failures of the backend itself (network,
	// disk, closed store): HTTP 503, retry later.
	ErrUnavailable = errors.New("ledger: backend unavailable")
	// ErrUnknownAccount means no account has the given id.
	ErrUnknownAccount = errors.New("ledger: unknown account")
	// ErrUnknownKeyID means no key has the given key id.
	ErrUnknownKeyID = errors.New("ledger: unknown key id")
	// ErrUnknownRequest means LookupUsage found no record.
	ErrUnknownRequest = errors.New("ledger: unknown request id")
	// ErrInvalidArgument means an argument is out of range.
	ErrInvalidArgument = errors.New("ledger: invalid argument")
	// ErrLocked means another process holds the embedded ledger file.
	ErrLocked = errors.New("ledger: ledger file is locked by another process (is mapd serve running?)")
	// ErrSchemaTooNew means the database was migrated by a newer mapd.
	ErrSchemaTooNew = errors.New("ledger: schema is newer than this binary")
	// ErrCorrupt means the embedded ledger's files are damaged, missing
	// or do not belong together: Open refuses them rather than lose or
	// invent charges. A *JournalDamageError says what a damaged journal
	// holds; Recover gets past it.
	ErrCorrupt = errors.New("ledger: damaged ledger files")
)

// InsufficientCreditsError says why a reservation was refused for money.
type InsufficientCreditsError struct {
	AccountID string
	// Balance is the available balance: credits not yet charged or held.
	Balance int64
	// Cost is the credits the request needed.
	Cost int64
	// Cap is "" when the balance was short, else "daily" or "monthly".
	Cap string
	// CapRemaining is what the named cap still allowed (0 when Cap is "").
	CapRemaining int64
}

// Cap names used in InsufficientCreditsError.Cap.
const (
	CapDaily   = "daily"
	CapMonthly = "monthly"
)

func (e *InsufficientCreditsError) Error() string {
	if e.Cap != "" {
		return fmt.Sprintf("ledger: account %s: request costs %d credits but the %s spend cap allows %d more (balance %d)",
			e.AccountID, e.Cost, e.Cap, e.CapRemaining, e.Balance)
	}
	return fmt.Sprintf("ledger: account %s: request costs %d credits but the balance is %d", e.AccountID, e.Cost, e.Balance)
}

// Is makes errors.Is(err, ErrInsufficientCredits) true.
func (e *InsufficientCreditsError) Is(target error) bool { return target == ErrInsufficientCredits }
