package ledger

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"

	"github.com/oklog/ulid/v2"
)

// Key format: a 3-byte kind prefix, then 32 random bytes in unpadded
// lowercase base32 (52 characters). 256 bits make guessing hopeless, so a
// plain SHA-256 is a safe way to store them (no slow password hash needed).
const (
	secretPrefix   = "sk_"
	publicPrefix   = "pk_"
	keyRandomBytes = 32
	keyBodyLen     = 52 // base32 length of keyRandomBytes without padding
	maxRequestID   = 64
)

var keyEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Secret is a plaintext API key. It prints and marshals redacted so that it
// cannot leak into logs or error bodies; call Reveal to show it to its owner.
type Secret string

// Reveal returns the plaintext key.
func (s Secret) Reveal() string { return string(s) }

// String returns the key's prefix and a redaction marker.
func (s Secret) String() string {
	if len(s) < len(secretPrefix) {
		return "[redacted]"
	}
	return string(s[:len(secretPrefix)]) + "[redacted]"
}

// GoString keeps %#v redacted too.
func (s Secret) GoString() string { return s.String() }

// MarshalJSON redacts the key.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + s.String() + `"`), nil }

// keyHash is the stored form of a key.
type keyHash [sha256.Size]byte

// newKey draws a fresh key of the given kind.
func newKey(kind KeyKind) (Secret, keyHash, error) {
	prefix, err := prefixOf(kind)
	if err != nil {
		return "", keyHash{}, err
	}
	var raw [keyRandomBytes]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", keyHash{}, fmt.Errorf("ledger: drawing a random key: %w", err)
	}
	key := prefix + keyEncoding.EncodeToString(raw[:])
	return Secret(key), sha256.Sum256([]byte(key)), nil
}

func prefixOf(kind KeyKind) (string, error) {
	switch kind {
	case KindSecret:
		return secretPrefix, nil
	case KindPublic:
		return publicPrefix, nil
	}
	return "", fmt.Errorf("%w: key kind %q (want %q or %q)", ErrInvalidArgument, kind, KindSecret, KindPublic)
}

// parseKey checks a presented key's shape and returns its hash. The error
// never contains the key.
func parseKey(presented string) (keyHash, error) {
	if len(presented) != len(secretPrefix)+keyBodyLen ||
		!(strings.HasPrefix(presented, secretPrefix) || strings.HasPrefix(presented, publicPrefix)) {
		return keyHash{}, ErrMalformedKey
	}
	for i := len(secretPrefix); i < len(presented); i++ {
		c := presented[i]
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return keyHash{}, ErrMalformedKey
		}
	}
	return sha256.Sum256([]byte(presented)), nil
}

// newID returns a time-ordered id such as "acct_01J..." or "key_01J...".
func newID(prefix string) string {
	return prefix + strings.ToLower(ulid.Make().String())
}

// checkRequest validates the arguments of Reserve.
func checkRequest(key KeyInfo, operation string, credits int64, requestID string) error {
	switch {
	case key.AccountID == "" || key.KeyID == "":
		return fmt.Errorf("%w: reserve without an authenticated key", ErrInvalidArgument)
	case operation == "":
		return fmt.Errorf("%w: reserve for account %s: empty operation", ErrInvalidArgument, key.AccountID)
	case credits <= 0:
		return fmt.Errorf("%w: reserve for account %s: credits %d must be > 0", ErrInvalidArgument, key.AccountID, credits)
	case requestID == "" || len(requestID) > maxRequestID:
		return fmt.Errorf("%w: reserve for account %s: request id must be 1 to %d bytes", ErrInvalidArgument, key.AccountID, maxRequestID)
	}
	return nil
}

// prepareKey checks IssueKey's arguments and makes the key both stores
// record: a fresh id and secret, and the hash that is all they keep.
func prepareKey(accountID string, kind KeyKind, rateLimit int) (IssuedKey, keyHash, error) {
	if rateLimit < 0 {
		return IssuedKey{}, keyHash{}, fmt.Errorf("%w: rate limit %d must be >= 0", ErrInvalidArgument, rateLimit)
	}
	secret, hash, err := newKey(kind)
	if err != nil {
		return IssuedKey{}, keyHash{}, err
	}
	return IssuedKey{KeyID: newID("key_"), AccountID: accountID, Kind: kind, RateLimit: rateLimit, Secret: secret}, hash, nil
}
