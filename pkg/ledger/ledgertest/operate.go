package ledgertest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// Contract cases of keys and usage reports (run by runContract).

// LegacyKeyAdder stores a key in the format issued before keys carried a
// checksum, as an old ledger holds it: the key id, its account and the
// SHA-256 of its secret. Each store writes it its own way, since no method
// of ledger.Store issues such keys any more.
type LegacyKeyAdder func(t *testing.T, s ledger.Store, keyID, accountID string, hash [sha256.Size]byte, now time.Time) error

// addLegacyKey stores a legacy key with add and returns the key.
func addLegacyKey(t *testing.T, s ledger.Store, add LegacyKeyAdder, accountID string) (keyID, key string) {
	t.Helper()
	key = "sk_" + strings.Repeat("legacy234567", 5)[:legacyBodyLen]
	keyID = shared.NewID("key_")
	if err := add(t, s, keyID, accountID, sha256.Sum256([]byte(key)), time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
	return keyID, key
}

// contractLegacyKeys: keys issued before the checksum keep working, and
// can be revoked and rotated like any other.
func contractLegacyKeys(t *testing.T, open Opener, add LegacyKeyAdder) {
	s := open(t, ledger.Options{})
	acct, _ := NewAccount(t, s, 10, nil)
	keyID, key := addLegacyKey(t, s, add, acct.AccountID)
	info, err := s.Authenticate(bg, key)
	if err != nil || info.KeyID != keyID || info.AccountID != acct.AccountID {
		t.Fatalf("Authenticate(legacy key) = %+v, %v", info, err)
	}
	Charge(t, s, info, "directions", 1, "legacy-1")
	next, _, err := s.RotateKey(bg, keyID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Secret.Reveal()) != keyLen {
		t.Errorf("the successor of a legacy key is %d characters long, want the checksummed %d", len(next.Secret.Reveal()), keyLen)
	}
	if _, err := s.Authenticate(bg, key); !errors.Is(err, ledger.ErrRevokedKey) {
		t.Errorf("legacy key after rotation with no grace: %v, want ErrRevokedKey", err)
	}
	MustVerify(t, s)
}

// contractRotateKey: the successor works at once with the old key's kind
// and rate; the old key works until the grace period ends, then is
// refused, cached answer or not; a later RevokeKey cuts the grace short.
func contractRotateKey(t *testing.T, open Opener) {
	clock := NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	s := open(t, ledger.Options{Now: clock.Now, AuthCacheTTL: time.Hour})
	acct, _ := NewAccount(t, s, 10, nil)
	old, err := s.IssueKey(bg, acct.AccountID, ledger.KindPublic, 7)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(bg, old.Secret.Reveal()); err != nil { // now cached for an hour
		t.Fatal(err)
	}
	next, end, err := s.RotateKey(bg, old.KeyID, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if want := clock.Now().Add(10 * time.Minute); !end.Equal(want) {
		t.Errorf("old key revoked at %v, want %v", end, want)
	}
	info, err := s.Authenticate(bg, next.Secret.Reveal())
	if err != nil || info.Kind != ledger.KindPublic || info.RateLimit != 7 || info.KeyID != next.KeyID || next.KeyID == old.KeyID {
		t.Errorf("Authenticate(successor) = %+v, %v", info, err)
	}
	clock.Set(clock.Now().Add(9 * time.Minute))
	if _, err := s.Authenticate(bg, old.Secret.Reveal()); err != nil {
		t.Errorf("old key during the grace period: %v", err)
	}
	clock.Set(clock.Now().Add(time.Minute))
	if _, err := s.Authenticate(bg, old.Secret.Reveal()); !errors.Is(err, ledger.ErrRevokedKey) {
		t.Errorf("old key once the grace period ended: %v, want ErrRevokedKey", err)
	}
	if _, _, err := s.RotateKey(bg, old.KeyID, time.Minute); !errors.Is(err, ledger.ErrInvalidArgument) {
		t.Errorf("rotating a revoked key: %v, want ErrInvalidArgument", err)
	}

	// A rotation with a long grace, cut short by RevokeKey.
	third, _, err := s.RotateKey(bg, next.KeyID, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.RotateKey(bg, next.KeyID, 48*time.Hour); err != nil {
		t.Fatal(err)
	}
	a, _ := s.GetAccount(bg, acct.AccountID)
	for _, k := range a.Keys {
		if k.KeyID == next.KeyID && (k.RevokedAt == nil || !k.RevokedAt.Equal(clock.Now().Add(24*time.Hour))) {
			t.Errorf("a second rotation moved the revocation to %v; the first one's, 24 h, comes first", k.RevokedAt)
		}
	}
	if err := s.RevokeKey(bg, next.KeyID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(bg, next.Secret.Reveal()); !errors.Is(err, ledger.ErrRevokedKey) {
		t.Errorf("RevokeKey during a grace period: %v, want ErrRevokedKey at once", err)
	}
	if _, err := s.Authenticate(bg, third.Secret.Reveal()); err != nil {
		t.Errorf("the newest key: %v", err)
	}
	for name, err := range map[string]error{
		"unknown key":    second3(s.RotateKey(bg, "key_nobody", 0)),
		"negative grace": second3(s.RotateKey(bg, third.KeyID, -time.Second)),
	} {
		if want := map[string]error{"unknown key": ledger.ErrUnknownKeyID, "negative grace": ledger.ErrInvalidArgument}[name]; !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
}

func second3[A, B any](_ A, _ B, err error) error { return err }

// contractUsageReport drives random traffic over ten days on a fake clock
// (charges of four operations, releases, grants) and checks usage reports
// over random ranges against the test's own books: per day and operation,
// the opening and closing balances, and, over the whole time, the
// account's balance and usage totals.
func contractUsageReport(t *testing.T, open Opener) {
	day0 := time.Date(2026, 2, 25, 0, 0, 0, 0, time.UTC)
	clock := NewFakeClock(day0.Add(time.Hour))
	s := open(t, ledger.Options{Now: clock.Now})
	acct, key := NewAccount(t, s, 5000, &ledger.Caps{})
	other, otherKey := NewAccount(t, s, 5000, &ledger.Caps{})
	rng := rand.New(rand.NewPCG(7, 8))
	ops := []string{"directions", "elevation", "isochrone", "matrix"}
	type dayOp struct {
		day int
		op  string
	}
	charged := map[dayOp]ledger.OperationTotals{}
	granted := map[int]int64{shared.DayOf(day0): 5000}
	const days = 10
	for d := range days {
		for i := range 40 {
			clock.Set(day0.AddDate(0, 0, d).Add(time.Duration(rng.Int64N(int64(24 * time.Hour)))))
			if rng.IntN(20) == 0 {
				n := 1 + rng.Int64N(100)
				if _, err := s.AddCredits(bg, acct.AccountID, n); err != nil {
					t.Fatal(err)
				}
				granted[shared.DayOf(clock.Now())] += n
				continue
			}
			op, credits := ops[rng.IntN(len(ops))], 1+rng.Int64N(5)
			r, err := s.Reserve(bg, key, op, credits, fmt.Sprintf("rep-%d-%d", d, i))
			if err != nil {
				t.Fatal(err)
			}
			if rng.IntN(4) == 0 {
				if err := s.Release(bg, r); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := s.Commit(bg, r); err != nil {
				t.Fatal(err)
			}
			k := dayOp{shared.DayOf(clock.Now()), op}
			tot := charged[k]
			tot.Requests++
			tot.Credits += credits
			charged[k] = tot
			// Another account's traffic must not show in this one's report.
			Charge(t, s, otherKey, op, 1, fmt.Sprintf("other-%d-%d", d, i))
		}
	}
	clock.Set(day0.AddDate(0, 0, days-1).Add(23 * time.Hour))
	check := func(from, to int) ledger.UsageReport {
		t.Helper()
		fromT, toT := day0.AddDate(0, 0, from), day0.AddDate(0, 0, to).Add(13*time.Hour) // only the dates count
		got, err := s.UsageReport(bg, acct.AccountID, fromT, toT)
		if err != nil {
			t.Fatal(err)
		}
		want := ledger.UsageReport{AccountID: acct.AccountID, From: fromT.Format(time.DateOnly), To: toT.Format(time.DateOnly), Days: []ledger.DayUsage{}}
		for k, tot := range charged {
			switch {
			case k.day < shared.DayOf(fromT):
				want.Balance.Opening -= tot.Credits
			case k.day <= shared.DayOf(toT):
				want.Days = append(want.Days, ledger.DayUsage{Date: shared.DayString(k.day), Operation: k.op, Requests: tot.Requests, Credits: tot.Credits})
			}
		}
		for day, n := range granted {
			switch {
			case day < shared.DayOf(fromT):
				want.Balance.Opening += n
			case day <= shared.DayOf(toT):
				want.Balance.Granted += n
			}
		}
		sort.Slice(want.Days, func(i, j int) bool {
			a, b := want.Days[i], want.Days[j]
			return a.Date < b.Date || a.Date == b.Date && a.Operation < b.Operation
		})
		shared.FinishReport(&want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("report %d..%d:\n got %+v\nwant %+v", from, to, got, want)
		}
		return got
	}
	all := check(0, days-1)
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if all.Balance.Closing != a.Balance || all.Totals.Credits != a.Usage.AllTime || all.Totals.Requests != a.Usage.Requests || all.Balance.Opening != 0 {
		t.Errorf("whole-time report %+v does not reconcile with the account: balance %d, charged %d in %d requests",
			all.Balance, a.Balance, a.Usage.AllTime, a.Usage.Requests)
	}
	for range 20 {
		from := rng.IntN(days)
		check(from, from+rng.IntN(days-from))
	}
	check(days+5, days+30) // after the traffic: nothing, the closing balance carried over
	if _, err := s.UsageReport(bg, acct.AccountID, day0.AddDate(0, 0, 2), day0); !errors.Is(err, ledger.ErrInvalidArgument) {
		t.Errorf("from after to: %v, want ErrInvalidArgument", err)
	}
	if _, err := s.UsageReport(bg, "acct_nobody", day0, day0); !errors.Is(err, ledger.ErrUnknownAccount) {
		t.Errorf("unknown account: %v, want ErrUnknownAccount", err)
	}
	if r, err := s.UsageReport(bg, other.AccountID, day0, day0.AddDate(0, 0, days)); err != nil || r.Totals.Requests != a.Usage.Requests {
		t.Errorf("the other account's report: %+v, %v; want %d requests", r.Totals, err, a.Usage.Requests)
	}
	MustVerify(t, s)
}
