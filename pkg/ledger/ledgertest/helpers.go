package ledgertest

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/ledger"
)

// Opener opens a fresh, empty ledger for one test.
type Opener func(t *testing.T, opts ledger.Options) ledger.Store

var bg = context.Background()

// NewAccount creates an account with the given credits and caps and
// authenticates its first key.
func NewAccount(t *testing.T, s ledger.Store, credits int64, caps *ledger.Caps) (ledger.NewAccount, ledger.KeyInfo) {
	t.Helper()
	acct, err := s.CreateAccount(bg, credits, caps)
	if err != nil {
		t.Fatalf("CreateAccount(%d): %v", credits, err)
	}
	info, err := s.Authenticate(bg, acct.Key.Secret.Reveal())
	if err != nil {
		t.Fatalf("Authenticate(first key): %v", err)
	}
	return acct, info
}

// MustVerify fails the test unless Verify finds every account balanced.
func MustVerify(t *testing.T, s ledger.Store) {
	t.Helper()
	report, err := s.Verify(bg)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if !report.OK() {
		t.Fatalf("Verify found mismatches: %+v", report.Mismatches)
	}
}

// BalanceOf returns an account's balance, as GetAccount reports it.
func BalanceOf(t *testing.T, s ledger.Store, accountID string) int64 {
	t.Helper()
	a, err := s.GetAccount(bg, accountID)
	if err != nil {
		t.Fatalf("GetAccount(%s): %v", accountID, err)
	}
	return a.Balance
}

// Charge reserves and commits credits for one request, failing the test
// if either fails.
func Charge(t *testing.T, s ledger.Store, key ledger.KeyInfo, op string, credits int64, requestID string) {
	t.Helper()
	r, err := s.Reserve(bg, key, op, credits, requestID)
	if err != nil {
		t.Fatalf("Reserve(%s, %d): %v", op, credits, err)
	}
	if err := s.Commit(bg, r); err != nil {
		t.Fatalf("Commit(%s): %v", requestID, err)
	}
}

// checksumOK reports whether a key of keyLen characters ends in its
// checksum (ledger.ParseKey refuses one that does not).
func checksumOK(key string) bool {
	_, err := ledger.ParseKey(key)
	return err == nil
}

// Key shapes (package ledger, keys.go): "sk_" or "pk_", 43 base62 digits
// and a 6-digit checksum; keys issued before the checksum carry 52 base32
// characters instead.
const (
	keyLen        = 3 + 43 + 6
	legacyBodyLen = 52
)
