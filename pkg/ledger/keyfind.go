package ledger

import (
	"encoding/hex"
	"regexp"
)

// Finding a key by its secret: an operator holding a leaked sk_... must be
// able to revoke it without knowing its key_... id. The secret is hashed
// where it is typed (KeyHash) and only its hash travels to the ledger (or
// through a serving mapd's admin socket), as only its hash is stored.

// KeyRef names one key: by its id (key_...) or by the hash of its secret
// (KeyHash). Exactly one is set.
type KeyRef struct {
	KeyID string `json:"key_id,omitempty"`
	Hash  string `json:"hash,omitempty"`
}

// KeyDetail is one key and the account it belongs to, without its secret.
type KeyDetail struct {
	AccountID string `json:"account_id"`
	KeySummary
}

// KeyHash returns the stored form of a presented key (hex SHA-256), after
// the same shape and checksum check as Authenticate: a key not copied whole
// is ErrMalformedKey. The error never contains the key.
func KeyHash(presented string) (string, error) {
	h, err := ParseKey(presented)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h[:]), nil
}

// keyLike finds what looks like a key in a text: a kind prefix and at
// least four key characters.
var keyLike = regexp.MustCompile(`\b([sp]k_)([A-Za-z0-9]*)([A-Za-z0-9]{4})\b`)

// RedactKeys replaces every key-like string in s by its prefix and last
// four characters ("sk_…q3Zx"), enough to tell keys apart in a message and
// useless to an attacker. For command-line tools' errors, which may echo
// what was typed.
func RedactKeys(s string) string {
	return keyLike.ReplaceAllString(s, "${1}…${3}")
}
