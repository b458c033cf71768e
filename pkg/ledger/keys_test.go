package ledger

import (
	"errors"
	"hash/crc32"
	"regexp"
	"strings"
	"testing"
)

// scannerPattern is the pattern docs/metering.md gives secret scanners.
var scannerPattern = regexp.MustCompile(`\b[sp]k_[0-9A-Za-z]{49}\b`)

// TestKeyFormatGolden pins the format for secret scanners and client
// libraries: the expected keys were computed outside Go (Python's
// zlib.crc32 and integer arithmetic), from the bytes 0..31 and from 32
// bytes of 0xff.
func TestKeyFormatGolden(t *testing.T) {
	var zeroTo31, ones [keyRandomBytes]byte
	for i := range zeroTo31 {
		zeroTo31[i] = byte(i)
		ones[i] = 0xff
	}
	tests := []struct {
		prefix string
		raw    [keyRandomBytes]byte
		want   string
	}{
		{secretPrefix, zeroTo31, "sk_003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf3WINfG"},
		{publicPrefix, ones, "pk_yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp13dVO0t"},
	}
	for _, tc := range tests {
		if got := formatKey(tc.prefix, tc.raw); got != tc.want {
			t.Errorf("formatKey(%s, %x) = %s, want %s", tc.prefix, tc.raw, got, tc.want)
		}
		if _, err := ParseKey(tc.want); err != nil {
			t.Errorf("ParseKey(%s) = %v", tc.want, err)
		}
	}
}

// TestNewKeysMatchTheScannerPattern: fresh keys of both kinds have the
// documented shape and pass their own checksum.
func TestNewKeysMatchTheScannerPattern(t *testing.T) {
	for _, kind := range []KeyKind{KindSecret, KindPublic} {
		for range 100 {
			secret, hash, err := NewKey(kind)
			if err != nil {
				t.Fatal(err)
			}
			key := secret.Reveal()
			if len(key) != keyLen || !scannerPattern.MatchString(key) || key[:2] != string(kind[0])+"k" {
				t.Fatalf("%s key %q does not have the documented shape", kind, key)
			}
			if h, err := ParseKey(key); err != nil || h != hash {
				t.Fatalf("parseKey of a fresh key = %v", err)
			}
		}
	}
}

// TestMistypedKeysAreRefused: every single-character substitution and every
// swap of two neighbouring characters of random keys fails the checksum (a
// CRC-32 catches every error burst up to 32 bits long).
func TestMistypedKeysAreRefused(t *testing.T) {
	keys := 30
	if testing.Short() {
		keys = 5
	}
	for range keys {
		secret, _, err := NewKey(KindSecret)
		if err != nil {
			t.Fatal(err)
		}
		key := []byte(secret.Reveal())
		for i := len(secretPrefix); i < len(key); i++ {
			orig := key[i]
			for j := range len(base62) {
				if base62[j] == orig {
					continue
				}
				key[i] = base62[j]
				if _, err := ParseKey(string(key)); !errors.Is(err, ErrMalformedKey) {
					t.Fatalf("%q (character %d changed) passed: %v", key, i, err)
				}
			}
			key[i] = orig
			if i+1 < len(key) && key[i] != key[i+1] {
				key[i], key[i+1] = key[i+1], key[i]
				if _, err := ParseKey(string(key)); !errors.Is(err, ErrMalformedKey) {
					t.Fatalf("%q (characters %d and %d swapped) passed: %v", key, i, i+1, err)
				}
				key[i], key[i+1] = key[i+1], key[i]
			}
		}
	}
}

// TestParseKeyShapes covers the shapes around the two formats.
func TestParseKeyShapes(t *testing.T) {
	good := "sk_003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf3WINfG"
	legacy := "sk_" + strings.Repeat("abcdefgh234567", 4)[:legacyBodyLen]
	tests := []struct {
		name, key string
		ok        bool
	}{
		{"checksummed", good, true},
		{"checksummed public", "pk_" + good[3:], false}, // the prefix is inside the checksum
		{"legacy", legacy, true},
		{"legacy public", "pk_" + legacy[3:], true},
		{"legacy uppercase", strings.ToUpper(legacy[:3]) + strings.ToUpper(legacy[3:]), false},
		{"legacy with 1", legacy[:10] + "1" + legacy[11:], false},
		{"empty", "", false},
		{"prefix only", "sk_", false},
		{"other prefix", "xk_" + good[3:], false},
		{"one short", good[:keyLen-1], false},
		{"one long", good + "0", false},
		{"legacy one long", legacy + "a", false},
		{"legacy much longer", legacy + strings.Repeat("a", 100), false},
		{"checksum overflows 32 bits", good[:keyLen-keyCheckLen] + "zzzzzz", false},
		{"non-ASCII", good[:10] + "é" + good[12:], false},
	}
	for _, tc := range tests {
		_, err := ParseKey(tc.key)
		if (err == nil) != tc.ok {
			t.Errorf("%s: ParseKey(%q) = %v, want ok %v", tc.name, tc.key, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrMalformedKey) {
			t.Errorf("%s: error %v is not ErrMalformedKey", tc.name, err)
		}
	}
}

// TestParseKeyDoesNotAllocate: parseKey runs on every request.
func TestParseKeyDoesNotAllocate(t *testing.T) {
	good := "sk_003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf3WINfG"
	if n := testing.AllocsPerRun(1000, func() { ParseKey(good) }); n != 0 {
		t.Errorf("parseKey allocates %.1f times per call", n)
	}
}

// FuzzParseKey: any input is refused or accepted without panicking, the
// error never quotes it, and what is accepted has one of the two shapes.
func FuzzParseKey(f *testing.F) {
	f.Add("sk_003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf3WINfG")
	f.Add("pk_yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp13dVO0t")
	f.Add("sk_" + strings.Repeat("a", legacyBodyLen))
	f.Add("sk_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz")
	f.Add("")
	f.Fuzz(func(t *testing.T, key string) {
		_, err := ParseKey(key)
		if err != nil {
			if len(key) > 3 && strings.Contains(err.Error(), key) {
				t.Errorf("error %q quotes the key", err)
			}
			return
		}
		switch len(key) {
		case keyLen:
			if !scannerPattern.MatchString(key) {
				t.Errorf("accepted %q, which the scanner pattern misses", key)
			}
		case legacyKeyLen:
		default:
			t.Errorf("accepted %q of length %d", key, len(key))
		}
	})
}

// BenchmarkParseKey: what a key's shape check (and, for checksummed keys,
// its CRC-32) and hash cost on every request, for both formats.
func BenchmarkParseKey(b *testing.B) {
	for _, tc := range []struct{ name, key string }{
		{"checksummed", "sk_003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf3WINfG"},
		{"legacy", "sk_" + strings.Repeat("abcdefgh234567", 4)[:legacyBodyLen]},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseKey(tc.key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestKeyChecksumMatchesCRC32: the software CRC is the standard one, on
// every length around the 8-byte steps.
func TestKeyChecksumMatchesCRC32(t *testing.T) {
	data := []byte("sk_003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf3WINfG and some more bytes")
	for n := range len(data) + 1 {
		if got, want := keyChecksum(data[:n]), crc32.ChecksumIEEE(data[:n]); got != want {
			t.Errorf("keyChecksum of %d bytes = %08x, want %08x", n, got, want)
		}
	}
}
