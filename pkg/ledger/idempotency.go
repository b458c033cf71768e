package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Idempotency keys (as Stripe's): a client sends a key of its choosing with
// a request; a retry with the same key and the same body returns the stored
// answer of the first request that was charged, with its request_id, and is
// not charged again. Keys are per account.
//
// The answer is stored before the charge and a retry replays it only once
// the charge exists, so the usage record decides, in both stores, whether
// a key's request was charged:
//
//	Begin     claim (account, key) for a request, or get the stored answer
//	Complete  store the answer (durable no later than the charge)
//	Commit    charge it (Meter.Commit)
//	Finish    end the claim with Commit's outcome
//	Abandon   drop the claim of a request that never reached Commit
//
// A retry while the first request runs, or while its charge is in doubt,
// gets ErrIdempotencyInProgress; with another body, ErrIdempotencyKeyReused.
// Only charged answers are stored: a request that failed costs nothing, and
// its retry computes afresh.

// IdempotencyTTL is how long an answer is kept and a key stays bound to its
// body: 24 hours, as Stripe keeps them.
const IdempotencyTTL = 24 * time.Hour

// Errors of Idempotency.Begin and Complete.
var (
	// ErrIdempotencyKeyReused means the key was used within IdempotencyTTL
	// for a request with another operation or body.
	ErrIdempotencyKeyReused = errors.New("ledger: idempotency key already used for another request")
	// ErrIdempotencyInProgress means the key's request is still running, or
	// whether it was charged is not known yet; retry later.
	ErrIdempotencyInProgress = errors.New("ledger: a request with this idempotency key is in progress")
)

// Claim is one request's hold on an idempotency key.
type Claim struct {
	AccountID string
	Key       string // the client's Idempotency-Key, 1 to 255 bytes
	// Fingerprint identifies the request: a hash of its operation and body.
	Fingerprint [32]byte
	RequestID   string
}

// Replay is the stored answer of a key's charged request.
type Replay struct {
	RequestID string
	// Answer is the stored answer, or nil when it was larger than
	// MaxStoredAnswer and only its SHA-256, Hash, was kept: the caller
	// computes the request again, under RequestID and Credits, and
	// answers that without charging it (docs/metering.md).
	Answer []byte
	Hash   [32]byte
	// Credits is what the request was charged (its usage record's).
	Credits int64
}

// MaxStoredAnswer bounds the answers Complete stores whole (issue 34 item
// 5): a 50-waypoint directions answer with steps is about 510 KB, and
// 200 of them grew the embedded ledger by 113 MiB, which bbolt never gives
// back. A larger answer is stored as its SHA-256 (32 bytes), so a key
// costs the ledger at most MaxStoredAnswer + the key + about 100 bytes.
const MaxStoredAnswer = 1024

// Idempotency stores claims and answers. Both stores implement it
// (packages embedded and postgres); OpenIdempotency returns
// the one of a Store. Safe for concurrent use.
type Idempotency interface {
	// Begin claims c.Key for c.RequestID and returns nil, nil: compute,
	// then Complete, Commit and Finish, or Abandon. It returns the stored
	// answer when the key's earlier request was charged,
	// ErrIdempotencyKeyReused when the key is bound to another fingerprint,
	// ErrIdempotencyInProgress, or an ErrUnavailable error.
	Begin(ctx context.Context, c Claim) (*Replay, error)
	// Complete stores the answer of c's request. Call it just before
	// Meter.Commit: once the charge exists, a retry gets this answer. It
	// returns ErrIdempotencyInProgress if the claim was taken over (its
	// request outlived the lease): then do not Commit.
	Complete(ctx context.Context, c Claim, answer []byte) error
	// Finish ends a claim after Meter.Commit, given Commit's error. nil
	// keeps the answer for IdempotencyTTL. An error that may have charged
	// (ErrUnavailable) leaves the claim in doubt: retries get
	// ErrIdempotencyInProgress until the store can tell (see the stores).
	// Any other error means nothing was charged, and the claim is dropped.
	Finish(ctx context.Context, c Claim, commitErr error) error
	// Abandon drops the claim of a request that ends before Complete
	// (failed, shed, its client gone): nothing was charged.
	Abandon(ctx context.Context, c Claim) error
	// Prune deletes answers older than IdempotencyTTL and returns how many.
	Prune(ctx context.Context) (int, error)
}

// IdempotencyOptions tune OpenIdempotency; the zero value is ready to use.
type IdempotencyOptions struct {
	// Lease is how long a PostgreSQL claim whose request holds no credits
	// blocks retries before another replica may take it over: it must
	// exceed the longest wait between Begin and Reserve (the admission
	// queue). 0 means one minute. The embedded store knows which of its
	// requests run and ignores it.
	Lease time.Duration
	// TTL overrides IdempotencyTTL, for tests. 0 means IdempotencyTTL.
	TTL time.Duration
	// Now is the clock, for tests. nil means time.Now.
	Now func() time.Time
}

func (o IdempotencyOptions) withDefaults() IdempotencyOptions {
	if o.Lease <= 0 {
		o.Lease = time.Minute
	}
	if o.TTL <= 0 {
		o.TTL = IdempotencyTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// idempotencyOpener is what a Store offers to OpenIdempotency: both stores
// keep their claims beside their charges (a bbolt bucket, a table), so
// each opens its own.
type idempotencyOpener interface {
	OpenIdempotency(ctx context.Context, opts IdempotencyOptions) (Idempotency, error)
}

// OpenIdempotency returns the idempotency store of s, creating its bucket
// or table if needed. s must come from a store's Open (package open,
// embedded or postgres) and outlive it.
func OpenIdempotency(ctx context.Context, s Store, opts IdempotencyOptions) (Idempotency, error) {
	if st, ok := s.(idempotencyOpener); ok {
		return st.OpenIdempotency(ctx, opts.withDefaults())
	}
	return nil, fmt.Errorf("%w: idempotency needs a store from open.Open, not %T", ErrInvalidArgument, s)
}
