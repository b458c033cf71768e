package ledger

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"math/big"
	"strings"
)

// Key format (see the package comment, "Keys"): a 3-byte kind prefix, 43
// base62 characters of 32 random bytes, and 6 base62 characters of the
// CRC-32 (IEEE) of the 46 before them, 52 characters in all. 256 bits make
// guessing hopeless, so a plain SHA-256 is a safe way to store them (no slow
// password hash needed); the checksum lets a mistyped key be refused
// without a lookup and lets secret scanners tell our keys from noise.
// Keys issued before the checksum (the prefix and 52 characters of
// lowercase base32, 55 in all) are still accepted, unchecked.
const (
	secretPrefix   = "sk_"
	publicPrefix   = "pk_"
	keyRandomBytes = 32
	keyBodyLen     = 43 // base62 digits of keyRandomBytes: 62^43 > 2^256
	keyCheckLen    = 6  // base62 digits of a CRC-32: 62^6 > 2^32
	keyLen         = len(secretPrefix) + keyBodyLen + keyCheckLen
	legacyBodyLen  = 52 // base32 length of keyRandomBytes without padding
	legacyKeyLen   = len(secretPrefix) + legacyBodyLen
)

// base62 is the alphabet of keys with a checksum, in digit order.
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// KeyKind says what a key may do.
type KeyKind string

// Key kinds. Secret keys are for servers and may call compute endpoints;
// public keys may not (the middleware answers 403).
const (
	KindSecret KeyKind = "secret"
	KindPublic KeyKind = "public"
)

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

// NewKey draws a fresh key of the given kind.
func NewKey(kind KeyKind) (Secret, [sha256.Size]byte, error) {
	prefix, err := prefixOf(kind)
	if err != nil {
		return "", [sha256.Size]byte{}, err
	}
	var raw [keyRandomBytes]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", [sha256.Size]byte{}, fmt.Errorf("ledger: drawing a random key: %w", err)
	}
	key := formatKey(prefix, raw)
	return Secret(key), sha256.Sum256([]byte(key)), nil
}

// formatKey writes a key of the given prefix with the given random bytes.
func formatKey(prefix string, raw [keyRandomBytes]byte) string {
	key := make([]byte, 0, keyLen)
	key = append(key, prefix...)
	key = appendBase62(key, new(big.Int).SetBytes(raw[:]), keyBodyLen)
	key = appendBase62(key, big.NewInt(int64(crc32.ChecksumIEEE(key))), keyCheckLen)
	return string(key)
}

// appendBase62 appends n in base62, most significant digit first, padded
// with zeros to width digits (n must fit).
func appendBase62(dst []byte, n *big.Int, width int) []byte {
	digits := make([]byte, width)
	n = new(big.Int).Set(n)
	base, digit := big.NewInt(62), new(big.Int)
	for i := width - 1; i >= 0; i-- {
		n.DivMod(n, base, digit)
		digits[i] = base62[digit.Int64()]
	}
	return append(dst, digits...)
}

// base62Digits maps a byte to its base62 value, or -1.
var base62Digits = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(base62) {
		t[base62[i]] = int8(i)
	}
	return t
}()

// base62Value returns the value of a base62 digit, or -1.
func base62Value(c byte) int { return int(base62Digits[c]) }

func prefixOf(kind KeyKind) (string, error) {
	switch kind {
	case KindSecret:
		return secretPrefix, nil
	case KindPublic:
		return publicPrefix, nil
	}
	return "", fmt.Errorf("%w: key kind %q (want %q or %q)", ErrInvalidArgument, kind, KindSecret, KindPublic)
}

// ParseKey checks a presented key's shape (and checksum) and returns its
// hash, so that a mistyped key is refused before any lookup. The error never
// contains the key.
func ParseKey(presented string) ([sha256.Size]byte, error) {
	if !strings.HasPrefix(presented, secretPrefix) && !strings.HasPrefix(presented, publicPrefix) {
		return [sha256.Size]byte{}, ErrMalformedKey
	}
	// Checked and hashed from a copy on the stack: []byte(presented) would
	// allocate. A longer key is refused before the copy, which would cut it
	// to a legacy key's length (FuzzParseKey found "sk_" and 53 base32
	// characters accepted as the legacy key of its first 52).
	var buf [max(keyLen, legacyKeyLen)]byte
	if len(presented) > len(buf) {
		return [sha256.Size]byte{}, ErrMalformedKey
	}
	key := buf[:copy(buf[:], presented)]
	var ok bool
	switch len(key) {
	case keyLen:
		ok = checksumOK(key)
	case legacyKeyLen:
		ok = legacyShapeOK(presented)
	}
	if !ok {
		return [sha256.Size]byte{}, ErrMalformedKey
	}
	return sha256.Sum256(key), nil
}

// checksumOK reports whether a keyLen-long key is base62 and ends with the
// checksum of the rest.
func checksumOK(key []byte) bool {
	body := len(key) - keyCheckLen
	for i := len(secretPrefix); i < body; i++ {
		if base62Value(key[i]) < 0 {
			return false
		}
	}
	var check uint64
	for i := body; i < len(key); i++ {
		v := base62Value(key[i])
		if v < 0 {
			return false
		}
		check = check*62 + uint64(v)
	}
	return check == uint64(keyChecksum(key[:body]))
}

// crcTables are the tables of CRC-32 (IEEE) slicing by 8: crcTables[0] is
// the byte-at-a-time table, and crcTables[k][b] is the CRC of byte b
// followed by k zero bytes.
var crcTables = func() (t [8][256]uint32) {
	t[0] = *crc32.MakeTable(crc32.IEEE)
	for b := range 256 {
		for k := 1; k < 8; k++ {
			prev := t[k-1][b]
			t[k][b] = t[0][byte(prev)] ^ prev>>8
		}
	}
	return t
}()

// keyChecksum is crc32.ChecksumIEEE in software, eight bytes a step: the
// standard library's version lets its argument escape (it dispatches
// through a function variable), so ParseKey's copy of the key on the stack
// would move to the heap on every request, and a byte at a time took four
// times as long (a chain of dependent table loads).
func keyChecksum(p []byte) uint32 {
	crc := ^uint32(0)
	for ; len(p) >= 8; p = p[8:] {
		crc ^= uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
		crc = crcTables[0][p[7]] ^ crcTables[1][p[6]] ^ crcTables[2][p[5]] ^ crcTables[3][p[4]] ^
			crcTables[4][crc>>24] ^ crcTables[5][byte(crc>>16)] ^ crcTables[6][byte(crc>>8)] ^ crcTables[7][byte(crc)]
	}
	for _, c := range p {
		crc = crcTables[0][byte(crc)^c] ^ crc>>8
	}
	return ^crc
}

// legacyShapeOK reports whether a legacyKeyLen-long key is lowercase base32,
// as keys were issued before they carried a checksum.
func legacyShapeOK(key string) bool {
	for i := len(secretPrefix); i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}
