package shared

import (
	"context"
	"crypto/sha256"
	"errors"

	"github.com/mapsco/maps/pkg/ledger"
)

// StoredAnswer is what Complete keeps of an answer: the answer itself, or
// its SHA-256 when it is larger than ledger.MaxStoredAnswer (hashed).
func StoredAnswer(answer []byte) (stored []byte, hashed bool) {
	if len(answer) <= ledger.MaxStoredAnswer {
		return answer, false
	}
	h := sha256.Sum256(answer)
	return h[:], true
}

// ReplayOf makes the ledger.Replay of a stored answer.
func ReplayOf(requestID string, stored []byte, hashed bool, credits int64) *ledger.Replay {
	r := &ledger.Replay{RequestID: requestID, Credits: credits}
	if hashed {
		copy(r.Hash[:], stored)
	} else {
		r.Answer = stored
	}
	return r
}

// ChargedCredits returns what requestID was charged, or ok false when it
// has no usage record.
func ChargedCredits(ctx context.Context, s ledger.Admin, requestID string) (credits int64, ok bool, err error) {
	u, err := s.LookupUsage(ctx, requestID)
	switch {
	case err == nil:
		return u.Credits, true, nil
	case errors.Is(err, ledger.ErrUnknownRequest):
		return 0, false, nil
	}
	return 0, false, err
}
