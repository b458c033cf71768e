package api

import (
	"context"
	"crypto/sha256"
	"errors"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/ledger"
)

// Idempotency-Key (as Stripe's, and the IETF draft "The Idempotency-Key
// HTTP Header Field"): a client that sends the header on a compute request
// may retry it, after a timeout or a dropped connection, without paying
// twice. A retry with the same key and the same body (byte for byte) to the
// same operation, within 24 hours, gets the stored answer of the first
// request that was charged: the same body, request_id included, with
// Idempotent-Replayed: true, and is not charged. The same key with another
// body or operation is refused with 409 idempotency-key-reused; a retry
// while the first request still runs (or whether it was charged is not yet
// known) with 409 idempotency-key-in-use and Retry-After. Keys are per
// account. Only charged answers are stored: a request that failed cost
// nothing, and its retry computes afresh. The ledger keeps the keys
// (ledger.Idempotency); docs/metering.md says what is guaranteed.
const (
	HeaderIdempotencyKey      = "Idempotency-Key"
	HeaderIdempotentReplayed  = "Idempotent-Replayed"
	MaxIdempotencyKeyLength   = 255
	idempotencyInUseRetrySecs = 1
)

// idempotencyKey returns the request's Idempotency-Key, "" when it has
// none, or a failure when it is not 1 to 255 printable ASCII characters.
func idempotencyKey(ctx *fasthttp.RequestCtx) (string, *failure) {
	v := ctx.Request.Header.Peek(HeaderIdempotencyKey)
	if v == nil {
		return "", nil
	}
	ok := len(v) >= 1 && len(v) <= MaxIdempotencyKeyLength
	for _, c := range v {
		ok = ok && c >= 0x20 && c < 0x7f
	}
	if !ok {
		return "", &failure{kind: KindInvalidRequest, detail: "the Idempotency-Key header must be 1 to 255 printable ASCII characters",
			errs: []FieldError{{Field: HeaderIdempotencyKey, Message: "1 to 255 printable ASCII characters, e.g. a UUID"}}}
	}
	return string(v), nil
}

// keyClaim is a request's hold on its Idempotency-Key while it runs.
type keyClaim struct {
	store     ledger.Idempotency
	claim     ledger.Claim
	completed bool // Complete stored the answer: Finish, not Abandon, ends it
	ended     bool
}

// claimKey claims the request's key, if it sent one. It returns the
// claim (nil without a key), or the stored answer to replay, or a failure.
func claimKey(ctx *fasthttp.RequestCtx, store ledger.Idempotency, accountID, operation, requestID string) (*keyClaim, *ledger.Replay, *failure) {
	key, f := idempotencyKey(ctx)
	if key == "" || f != nil {
		return nil, nil, f
	}
	if store == nil {
		return nil, nil, &failure{kind: KindInvalidRequest, detail: "this server does not support the Idempotency-Key header"}
	}
	c := ledger.Claim{AccountID: accountID, Key: key, Fingerprint: fingerprint(operation, ctx.PostBody()), RequestID: requestID}
	replay, err := store.Begin(context.Background(), c)
	switch {
	case errors.Is(err, ledger.ErrIdempotencyKeyReused):
		return nil, nil, &failure{kind: KindIdempotencyKeyReused,
			detail: "this Idempotency-Key was used in the last 24 hours for a request with another operation or body; send a new key for a new request"}
	case errors.Is(err, ledger.ErrIdempotencyInProgress):
		return nil, nil, &failure{kind: KindIdempotencyKeyInUse, retryAfter: idempotencyInUseRetrySecs,
			detail: "a request with this Idempotency-Key is still running, or its outcome is not known yet; retry after 1 s"}
	case err != nil:
		return nil, nil, unavailable("the ledger")
	case replay != nil:
		return nil, replay, nil
	}
	return &keyClaim{store: store, claim: c}, nil, nil
}

// fingerprint identifies a request: its operation and its body.
func fingerprint(operation string, body []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(operation))
	h.Write([]byte{0})
	h.Write(body)
	var fp [32]byte
	h.Sum(fp[:0])
	return fp
}

// complete stores the answer before the charge; false means the claim
// was lost (another replica took the key over) and the request must not
// be charged.
func (k *keyClaim) complete(answer []byte) *failure {
	if k == nil {
		return nil
	}
	err := k.store.Complete(context.Background(), k.claim, answer)
	switch {
	case errors.Is(err, ledger.ErrIdempotencyInProgress):
		return &failure{kind: KindIdempotencyKeyInUse, retryAfter: idempotencyInUseRetrySecs,
			detail: "another request took over this Idempotency-Key while this one ran; retry after 1 s"}
	case err != nil:
		return unavailable("the ledger")
	}
	k.completed = true
	return nil
}

// finish ends the claim after the charge was committed (commitErr nil) or
// not.
func (k *keyClaim) finish(commitErr error) {
	if k == nil || k.ended {
		return
	}
	k.ended = true
	_ = k.store.Finish(context.Background(), k.claim, commitErr) // a claim left behind is taken over later
}

// abandon drops the claim of a request that ends before its answer was
// stored; a no-op once finished.
func (k *keyClaim) abandon() {
	if k == nil || k.ended {
		return
	}
	k.ended = true
	if k.completed {
		_ = k.store.Finish(context.Background(), k.claim, errNotCommitted)
		return
	}
	_ = k.store.Abandon(context.Background(), k.claim)
}

// errNotCommitted tells Finish that Commit was never called: nothing was
// charged.
var errNotCommitted = errors.New("api: the request ended before its charge was committed")

// replay answers with a stored answer.
func replay(ctx *fasthttp.RequestCtx, r *ledger.Replay) {
	ctx.SetUserValue(requestIDKey{}, r.RequestID) // the id the client sees, in the log too
	ctx.Response.Header.Set(HeaderIdempotentReplayed, "true")
	ctx.SetContentType("application/json")
	ctx.Response.SetBodyRaw(r.Answer) // see compute
}

// replayedAgain marks the answer of a request computed again for its key,
// free: the first answer was larger than ledger.MaxStoredAnswer, so the
// ledger kept only its SHA-256, and the retry was computed under the first
// request's id and credits. The same data release gives the same bytes
// byte for byte; after a release swap it is the current release's answer
// (its data_version says so), and the client still pays once. Either way
// Idempotent-Replayed: true (the header's one value in the OpenAPI
// document); the access log says which, as "replay": "same" or "changed".
func replayedAgain(ctx *fasthttp.RequestCtx, first *ledger.Replay, answer []byte) {
	same := sha256.Sum256(answer) == first.Hash
	ctx.SetUserValue(UserReplayChanged, !same)
	ctx.Response.Header.Set(HeaderIdempotentReplayed, "true")
}
