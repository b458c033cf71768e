package ledger

import (
	"context"
	"crypto/sha256"
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

// storedAnswer is what Complete keeps of an answer: the answer itself, or
// its SHA-256 when it is larger than MaxStoredAnswer (hashed).
func storedAnswer(answer []byte) (stored []byte, hashed bool) {
	if len(answer) <= MaxStoredAnswer {
		return answer, false
	}
	h := sha256.Sum256(answer)
	return h[:], true
}

// replayOf makes the Replay of a stored answer.
func replayOf(requestID string, stored []byte, hashed bool, credits int64) *Replay {
	r := &Replay{RequestID: requestID, Credits: credits}
	if hashed {
		copy(r.Hash[:], stored)
	} else {
		r.Answer = stored
	}
	return r
}

// Idempotency stores claims and answers. Both stores implement it
// (idempotency_bolt.go, idempotency_postgres.go); OpenIdempotency returns
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

// OpenIdempotency returns the idempotency store of s, creating its bucket
// or table if needed. s must come from Open or OpenWith and outlive it.
func OpenIdempotency(ctx context.Context, s Store, opts IdempotencyOptions) (Idempotency, error) {
	opts = opts.withDefaults()
	switch st := s.(type) {
	case *boltStore:
		return openBoltIdempotency(st, opts)
	case *postgresStore:
		return openPostgresIdempotency(ctx, st, opts)
	}
	return nil, fmt.Errorf("%w: idempotency needs a store from ledger.Open, not %T", ErrInvalidArgument, s)
}

// chargedCredits returns what requestID was charged, or ok false when it
// has no usage record.
func chargedCredits(ctx context.Context, s Admin, requestID string) (credits int64, ok bool, err error) {
	u, err := s.LookupUsage(ctx, requestID)
	switch {
	case err == nil:
		return u.Credits, true, nil
	case errors.Is(err, ErrUnknownRequest):
		return 0, false, nil
	}
	return 0, false, err
}
