package ledger

import (
	"context"
	"time"
)

// Meter is the per-request part of the ledger, called by the HTTP middleware
// on every compute request (see the package comment for the sequence).
//
// Its calls need no deadline from the caller: the PostgreSQL store bounds
// each one's round trips itself (a few seconds, then ErrUnavailable), and
// the embedded store never waits on a network. A context's deadline or
// cancellation is still honoured where the store waits on the network.
type Meter interface {
	// Authenticate resolves a presented bearer key. It returns
	// ErrMalformedKey, ErrUnknownKey or ErrRevokedKey for keys that must be
	// refused, or an error wrapping ErrUnavailable. It never puts the key in
	// an error.
	Authenticate(ctx context.Context, presentedKey string) (KeyInfo, error)

	// Reserve holds credits for one request of the given operation
	// (e.g. "directions") on the key's account, after checking atomically
	// that the account is active, that its available balance covers the
	// cost and that no spend cap would be exceeded. credits must be > 0 and
	// requestID non-empty (at most 64 bytes). Every successful Reserve
	// must be followed by exactly one Commit or Release (defer the
	// Release): the embedded store keeps a forgotten hold until restart,
	// the PostgreSQL store until Options.HoldTTL. It returns an
	// *InsufficientCreditsError (errors.Is ErrInsufficientCredits),
	// ErrAccountSuspended, ErrUnknownAccount or an ErrUnavailable error.
	Reserve(ctx context.Context, key KeyInfo, operation string, credits int64, requestID string) (Reservation, error)

	// Commit turns a reservation into a permanent charge and writes its
	// usage record. It returns nil only once both are durable (for the
	// embedded store: survive the process's death, or with SyncCommit the
	// machine's; see Options.Sync): send the 200 after it, never before. After Commit, whatever its outcome, the
	// reservation is finished: do not Release it. An error that does not
	// wrap ErrUnavailable means nothing was charged. ErrUnavailable means
	// nothing stays charged: the PostgreSQL store gives the credits back
	// if its server runs the commit after a deadline, and voids a commit
	// whose answer it did not get once the server answers again (a charge
	// that landed meanwhile is refunded; see package postgres, void.go). The
	// embedded store's journal write may have landed although it failed;
	// the store then starts its journal over, which retires it (a crash
	// before that would replay it). Either way do not answer 200.
	Commit(ctx context.Context, r Reservation) error

	// Release gives the held credits back; once it returns, the request
	// costs nothing (the embedded store has durably cancelled the charge it
	// journaled at Reserve). Releasing a reservation that was already
	// committed or released returns ErrUnknownReservation.
	Release(ctx context.Context, r Reservation) error
}

// Admin is the staff side of the ledger, used by the mapd admin commands.
type Admin interface {
	// CreateAccount opens an active account with an initial grant of
	// credits (>= 0) and issues its first secret key. caps nil means
	// DefaultCaps.
	CreateAccount(ctx context.Context, credits int64, caps *Caps) (NewAccount, error)
	// GetAccount returns balance, caps, status, keys and usage totals.
	GetAccount(ctx context.Context, accountID string) (Account, error)
	// Suspend refuses the account's requests until Restore.
	Suspend(ctx context.Context, accountID string) error
	// Restore reactivates a suspended account.
	Restore(ctx context.Context, accountID string) error
	// AddCredits grants credits (> 0) and returns the new balance.
	AddCredits(ctx context.Context, accountID string, credits int64) (int64, error)
	// IssueKey issues a new key of the given kind. rateLimit is the key's
	// requests/second override; 0 means the server default.
	IssueKey(ctx context.Context, accountID string, kind KeyKind, rateLimit int) (IssuedKey, error)
	// RevokeKey revokes a key by id (not by secret), at once. Revoking a
	// revoked key is a no-op; one whose revocation RotateKey scheduled is
	// revoked now.
	RevokeKey(ctx context.Context, keyID string) error
	// FindKey returns a key and its account, by id or by the hash of its
	// secret (KeyHash), revoked or not: ErrUnknownKeyID when none matches.
	FindKey(ctx context.Context, ref KeyRef) (KeyDetail, error)
	// RotateKey issues a successor of a key that is not revoked (same
	// account, kind and rate limit) and schedules the old key's revocation
	// grace (>= 0) from now, or keeps an earlier one already scheduled. It
	// returns the new key and when the old one stops working.
	RotateKey(ctx context.Context, keyID string, grace time.Duration) (IssuedKey, time.Time, error)
	// SetCaps replaces the account's spend caps; 0 means no cap.
	SetCaps(ctx context.Context, accountID string, caps Caps) error
	// LookupUsage returns the usage record of a charged request or
	// ErrUnknownRequest.
	LookupUsage(ctx context.Context, requestID string) (Usage, error)
	// UsageReport sums an account's charges per UTC day and operation over
	// the days from and to (both included; only their dates count), with
	// the balance movements that reconcile them (see UsageReport).
	UsageReport(ctx context.Context, accountID string, from, to time.Time) (UsageReport, error)
	// Verify checks every account: balance == grants - charges, and
	// balance >= 0. The embedded store also checks its files: every bbolt
	// page and record, and its journal. A non-empty report.Mismatches or
	// report.Damage is not an error.
	Verify(ctx context.Context) (VerifyReport, error)
	// Migrate brings the schema to the latest version. It is idempotent
	// and safe to run from several processes at once. Open already runs it.
	Migrate(ctx context.Context) error
}

// Store is a whole ledger backend. Open returns one.
type Store interface {
	Meter
	Admin
	// Close releases the backend. In-flight Commits finish first.
	Close() error
}

// KeyKind says what a key may do.
type KeyKind string

// Key kinds. Secret keys are for servers and may call compute endpoints;
// public keys may not (the middleware answers 403).
const (
	KindSecret KeyKind = "secret"
	KindPublic KeyKind = "public"
)

// AccountStatus is whether an account may be served.
type AccountStatus string

// Account statuses.
const (
	StatusActive    AccountStatus = "active"
	StatusSuspended AccountStatus = "suspended"
)

// KeyInfo is what Authenticate learns about a valid key. It may be up to
// Options.AuthCacheTTL old; Reserve re-checks the status.
type KeyInfo struct {
	KeyID         string
	AccountID     string
	Kind          KeyKind
	AccountStatus AccountStatus
	// RateLimit is the key's requests/second override; 0 = server default.
	RateLimit int
}

// Reservation is credits held for one request. Treat it as an opaque token
// to hand back to Commit or Release; its fields are informative.
type Reservation struct {
	ID        int64
	AccountID string
	KeyID     string
	Operation string
	RequestID string
	Credits   int64
	At        time.Time
}

// Caps are spend limits in credits per UTC day and UTC month; 0 = no cap.
type Caps struct {
	Daily   int64 `json:"daily"`
	Monthly int64 `json:"monthly"`
}

// DefaultDailyCap is the daily spend cap of accounts created without
// explicit caps: spend caps are on by default so that a runaway client
// cannot drain a large balance in a day.
const DefaultDailyCap = 100_000

// DefaultCaps returns the caps given to new accounts by default.
func DefaultCaps() Caps { return Caps{Daily: DefaultDailyCap} }

// NewAccount is the result of CreateAccount: the id and the first key.
type NewAccount struct {
	AccountID string
	Key       IssuedKey
}

// IssuedKey is a freshly issued key. Secret is shown this once only.
type IssuedKey struct {
	KeyID     string  `json:"key_id"`
	AccountID string  `json:"account_id"`
	Kind      KeyKind `json:"kind"`
	RateLimit int     `json:"rate_limit"`
	Secret    Secret  `json:"-"`
}

// Account is an account as the admin sees it.
type Account struct {
	ID        string        `json:"account_id"`
	Status    AccountStatus `json:"status"`
	Balance   int64         `json:"balance"`
	Held      int64         `json:"held"`
	Caps      Caps          `json:"caps"`
	CreatedAt time.Time     `json:"created_at"`
	Usage     UsageTotals   `json:"usage"`
	Keys      []KeySummary  `json:"keys"`
}

// KeySummary describes a key without its secret.
type KeySummary struct {
	KeyID     string    `json:"key_id"`
	Kind      KeyKind   `json:"kind"`
	RateLimit int       `json:"rate_limit"`
	CreatedAt time.Time `json:"created_at"`
	// RevokedAt is when the key stops (or stopped) working: in the future
	// for a key RotateKey replaced, during its grace period.
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// UsageTotals sums an account's charges (in credits) and requests.
type UsageTotals struct {
	Today       int64                      `json:"today"`
	ThisMonth   int64                      `json:"this_month"`
	AllTime     int64                      `json:"all_time"`
	Requests    int64                      `json:"requests"`
	ByOperation map[string]OperationTotals `json:"by_operation"`
}

// OperationTotals sums one operation's charges over all time.
type OperationTotals struct {
	Credits  int64 `json:"credits"`
	Requests int64 `json:"requests"`
}

// Usage is the record of one charged request.
type Usage struct {
	RequestID string    `json:"request_id"`
	AccountID string    `json:"account_id"`
	KeyID     string    `json:"key_id"`
	Operation string    `json:"operation"`
	Credits   int64     `json:"credits"`
	At        time.Time `json:"at"`
}

// VerifyReport is the result of Verify.
type VerifyReport struct {
	Accounts   int        `json:"accounts"`
	Mismatches []Mismatch `json:"mismatches"`
	// Journal describes the embedded store's journal (nil for
	// PostgreSQL).
	Journal *JournalStatus `json:"journal,omitempty"`
	// Damage lists what the embedded store could not read: bbolt pages
	// that fail bbolt's consistency check or make it fail, records that
	// do not decode, a damaged journal. Empty when the files are sound.
	Damage []string `json:"damage,omitempty"`
}

// OK reports whether every account balanced and nothing was damaged.
func (r VerifyReport) OK() bool { return len(r.Mismatches) == 0 && len(r.Damage) == 0 }

// JournalStatus is what Verify found in the embedded store's journal: the
// records of its current epoch, all intact.
type JournalStatus struct {
	Path    string `json:"path"`
	Epoch   uint64 `json:"epoch"`
	Records int    `json:"records"`
	Bytes   int64  `json:"bytes"`
	Size    int64  `json:"size"`
}

// Mismatch is one account whose books do not balance.
type Mismatch struct {
	AccountID string `json:"account_id"`
	Balance   int64  `json:"balance"`
	Grants    int64  `json:"grants"`
	Charges   int64  `json:"charges"`
	Reason    string `json:"reason"`
}
