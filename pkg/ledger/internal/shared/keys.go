package shared

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/oklog/ulid/v2"

	"github.com/mapsco/maps/pkg/ledger"
)

// KeyHash is the SHA-256 of a key's secret: what the stores keep and look
// keys up by (ledger.ParseKey computes it).
type KeyHash = [sha256.Size]byte

// maxRequestID bounds request ids (Reserve's requestID).
const maxRequestID = 64

// NewID returns a time-ordered id such as "acct_01J..." or "key_01J...".
func NewID(prefix string) string {
	return prefix + strings.ToLower(ulid.Make().String())
}

// CheckRequest validates the arguments of Reserve.
func CheckRequest(key ledger.KeyInfo, operation string, credits int64, requestID string) error {
	switch {
	case key.AccountID == "" || key.KeyID == "":
		return fmt.Errorf("%w: reserve without an authenticated key", ledger.ErrInvalidArgument)
	case operation == "":
		return fmt.Errorf("%w: reserve for account %s: empty operation", ledger.ErrInvalidArgument, key.AccountID)
	case credits <= 0:
		return fmt.Errorf("%w: reserve for account %s: credits %d must be > 0", ledger.ErrInvalidArgument, key.AccountID, credits)
	case requestID == "" || len(requestID) > maxRequestID:
		return fmt.Errorf("%w: reserve for account %s: request id must be 1 to %d bytes", ledger.ErrInvalidArgument, key.AccountID, maxRequestID)
	}
	return nil
}

// PrepareKey checks IssueKey's arguments and makes the key both stores
// record: a fresh id and secret, and the hash that is all they keep.
func PrepareKey(accountID string, kind ledger.KeyKind, rateLimit int) (ledger.IssuedKey, KeyHash, error) {
	if rateLimit < 0 {
		return ledger.IssuedKey{}, KeyHash{}, fmt.Errorf("%w: rate limit %d must be >= 0", ledger.ErrInvalidArgument, rateLimit)
	}
	secret, hash, err := ledger.NewKey(kind)
	if err != nil {
		return ledger.IssuedKey{}, KeyHash{}, err
	}
	return ledger.IssuedKey{KeyID: NewID("key_"), AccountID: accountID, Kind: kind, RateLimit: rateLimit, Secret: secret}, hash, nil
}

// ParseRef checks a ledger.KeyRef and decodes its hash, if it has one.
func ParseRef(ref ledger.KeyRef) (KeyHash, error) {
	var h KeyHash
	switch {
	case (ref.KeyID == "") == (ref.Hash == ""):
		return h, fmt.Errorf("%w: a key is found by its id or by the hash of its secret, one of them", ledger.ErrInvalidArgument)
	case ref.Hash == "":
		return h, nil
	}
	b, err := hex.DecodeString(ref.Hash)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("%w: key hash %q: want %d hex digits", ledger.ErrInvalidArgument, ref.Hash, 2*len(h))
	}
	copy(h[:], b)
	return h, nil
}

// Describe names a ledger.KeyRef in errors: the id, or "the key with that secret"
// (the hash is no secret, but says nothing to a reader).
func Describe(ref ledger.KeyRef) string {
	if ref.KeyID != "" {
		return "key " + ref.KeyID
	}
	return "the key with that secret"
}
