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
