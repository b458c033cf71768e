package ledgertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// RunContract is the behaviour every Store must show. Both implementations
// run it (TestBoltContract in package embedded, TestPostgresContract in
// package postgres), each opening its own stores with open and writing
// legacy keys with addLegacy.
func RunContract(t *testing.T, open Opener, addLegacy LegacyKeyAdder) {
	cases := []struct {
		name string
		run  func(t *testing.T, open Opener)
	}{
		{"CreateAndAuthenticate", contractCreateAndAuthenticate},
		{"RefusedKeys", contractRefusedKeys},
		{"ReserveCommitCharges", contractReserveCommitCharges},
		{"ReleaseCostsNothing", contractReleaseCostsNothing},
		{"FinishedReservations", contractFinishedReservations},
		{"InsufficientCredits", contractInsufficientCredits},
		{"Caps", contractCaps},
		{"CapsRollOverAtUTCMidnight", contractCapsRollOver},
		{"ReleaseAcrossMidnight", contractReleaseAcrossMidnight},
		{"SuspendRestore", contractSuspendRestore},
		{"IssueAndRevokeKeys", contractIssueAndRevokeKeys},
		{"FindKey", contractFindKey},
		{"AdminErrors", contractAdminErrors},
		{"DuplicateRequestID", contractDuplicateRequestID},
		{"ConcurrentExactlyK", contractConcurrentExactlyK},
		{"LegacyKeys", func(t *testing.T, open Opener) { contractLegacyKeys(t, open, addLegacy) }},
		{"RotateKey", contractRotateKey},
		{"UsageReport", contractUsageReport},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

func contractCreateAndAuthenticate(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	acct, info := NewAccount(t, s, 100, nil)
	secret := acct.Key.Secret.Reveal()
	if !strings.HasPrefix(secret, "sk_") || len(secret) != keyLen || !checksumOK(secret) {
		t.Errorf("secret key has shape %q... (%d characters), want sk_ and %d characters ending in their checksum", secret[:3], len(secret), keyLen-3)
	}
	if !strings.HasPrefix(acct.AccountID, "acct_") || !strings.HasPrefix(acct.Key.KeyID, "key_") {
		t.Errorf("ids %q, %q lack their prefixes", acct.AccountID, acct.Key.KeyID)
	}
	want := ledger.KeyInfo{KeyID: acct.Key.KeyID, AccountID: acct.AccountID, Kind: ledger.KindSecret, AccountStatus: ledger.StatusActive}
	if info != want {
		t.Errorf("Authenticate = %+v, want %+v", info, want)
	}
	printed, _ := json.Marshal(acct)
	if strings.Contains(fmt.Sprint(acct), secret) || strings.Contains(fmt.Sprintf("%#v", acct), secret) ||
		strings.Contains(string(printed), secret) {
		t.Errorf("the secret leaks when the NewAccount is printed or marshalled")
	}
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 100 || a.Status != ledger.StatusActive || a.Caps != ledger.DefaultCaps() || len(a.Keys) != 1 {
		t.Errorf("GetAccount = %+v, want balance 100, active, default caps, one key", a)
	}
	MustVerify(t, s)
}

func contractRefusedKeys(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	acct, _ := NewAccount(t, s, 1, nil)
	real := acct.Key.Secret.Reveal()
	unknown := "sk_" + strings.Repeat("a", 52)
	// A typist's slip: two neighbouring characters of the body swapped. The
	// pair must differ, or the "mistyped" key is the real one (1 key in 62).
	i := 10
	for real[i] == real[i+1] {
		i++
	}
	mistyped := real[:i] + string(real[i+1]) + string(real[i]) + real[i+2:]
	tests := []struct {
		name, key string
		want      error
	}{
		{"empty", "", ledger.ErrMalformedKey},
		{"no prefix", real[3:], ledger.ErrMalformedKey},
		{"wrong prefix", "xk_" + real[3:], ledger.ErrMalformedKey},
		{"too short", real[:len(real)-1], ledger.ErrMalformedKey},
		{"uppercase", strings.ToUpper(real), ledger.ErrMalformedKey},
		{"bad character", real[:len(real)-1] + "!", ledger.ErrMalformedKey},
		{"mistyped", mistyped, ledger.ErrMalformedKey},
		{"unknown", unknown, ledger.ErrUnknownKey},
		{"unknown public", "pk_" + unknown[3:], ledger.ErrUnknownKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Authenticate(bg, tc.key)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Authenticate = %v, want %v", err, tc.want)
			}
			if tc.key != "" && strings.Contains(err.Error(), tc.key) {
				t.Errorf("error %q quotes the presented key", err)
			}
		})
	}
}

func contractReserveCommitCharges(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	acct, key := NewAccount(t, s, 100, nil)
	Charge(t, s, key, "directions", 3, "req-1")
	Charge(t, s, key, "matrix", 10, "req-2")
	Charge(t, s, key, "directions", 1, "req-3")
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 86 || a.Held != 0 {
		t.Errorf("balance %d held %d, want 86 and 0", a.Balance, a.Held)
	}
	wantUsage := ledger.UsageTotals{Today: 14, ThisMonth: 14, AllTime: 14, Requests: 3, ByOperation: map[string]ledger.OperationTotals{
		"directions": {Credits: 4, Requests: 2}, "matrix": {Credits: 10, Requests: 1}}}
	if fmt.Sprint(a.Usage) != fmt.Sprint(wantUsage) {
		t.Errorf("usage = %+v, want %+v", a.Usage, wantUsage)
	}
	u, err := s.LookupUsage(bg, "req-2")
	if err != nil {
		t.Fatal(err)
	}
	if u.AccountID != acct.AccountID || u.KeyID != key.KeyID || u.Operation != "matrix" || u.Credits != 10 ||
		time.Since(u.At) > time.Minute {
		t.Errorf("LookupUsage(req-2) = %+v", u)
	}
	if _, err := s.LookupUsage(bg, "req-404"); !errors.Is(err, ledger.ErrUnknownRequest) {
		t.Errorf("LookupUsage(unknown) = %v, want ErrUnknownRequest", err)
	}
	MustVerify(t, s)
}

func contractReleaseCostsNothing(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	acct, key := NewAccount(t, s, 10, nil)
	r, err := s.Reserve(bg, key, "isochrone", 5, "req-1")
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := s.GetAccount(bg, acct.AccountID); a.Held != 5 || a.Balance != 10 {
		t.Errorf("while held: balance %d held %d, want 10 and 5", a.Balance, a.Held)
	}
	if err := s.Release(bg, r); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.GetAccount(bg, acct.AccountID); a.Held != 0 || a.Balance != 10 || a.Usage.AllTime != 0 {
		t.Errorf("after release: %+v, want balance 10, nothing held or spent", a)
	}
	if _, err := s.LookupUsage(bg, "req-1"); !errors.Is(err, ledger.ErrUnknownRequest) {
		t.Errorf("a released request has a usage record: %v", err)
	}
	MustVerify(t, s)
}

func contractFinishedReservations(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	_, key := NewAccount(t, s, 10, nil)
	r1, _ := s.Reserve(bg, key, "directions", 1, "req-1")
	r2, _ := s.Reserve(bg, key, "directions", 1, "req-2")
	if err := s.Commit(bg, r1); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(bg, r2); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"commit twice":       s.Commit(bg, r1),
		"release committed":  s.Release(bg, r1),
		"release twice":      s.Release(bg, r2),
		"commit released":    s.Commit(bg, r2),
		"commit made-up one": s.Commit(bg, ledger.Reservation{ID: 999999, AccountID: key.AccountID, RequestID: "x"}),
	} {
		if !errors.Is(err, ledger.ErrUnknownReservation) {
			t.Errorf("%s: %v, want ErrUnknownReservation", name, err)
		}
	}
	if b := BalanceOf(t, s, key.AccountID); b != 9 {
		t.Errorf("balance %d, want 9", b)
	}
	MustVerify(t, s)
}

func contractInsufficientCredits(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	_, key := NewAccount(t, s, 7, nil)
	held, err := s.Reserve(bg, key, "isochrone", 5, "req-1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Reserve(bg, key, "isochrone", 5, "req-2")
	var short *ledger.InsufficientCreditsError
	if !errors.Is(err, ledger.ErrInsufficientCredits) || !errors.As(err, &short) {
		t.Fatalf("Reserve beyond balance = %v, want *InsufficientCreditsError", err)
	}
	if short.Balance != 2 || short.Cost != 5 || short.Cap != "" {
		t.Errorf("error = %+v, want available balance 2, cost 5, no cap", short)
	}
	if err := s.Commit(bg, held); err != nil {
		t.Fatal(err)
	}
	Charge(t, s, key, "directions", 2, "req-3")
	_, err = s.Reserve(bg, key, "directions", 1, "req-4")
	if !errors.As(err, &short) || short.Balance != 0 {
		t.Errorf("Reserve at zero balance = %v, want balance 0", err)
	}
	MustVerify(t, s)
}

func contractCaps(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	tests := []struct {
		name    string
		caps    ledger.Caps
		costs   []int64 // charged in order; the last one must fail
		wantCap string
		remain  int64
	}{
		{"daily", ledger.Caps{Daily: 10}, []int64{4, 4, 3}, ledger.CapDaily, 2},
		{"monthly", ledger.Caps{Monthly: 6}, []int64{5, 2}, ledger.CapMonthly, 1},
		{"daily before monthly", ledger.Caps{Daily: 3, Monthly: 100}, []int64{3, 1}, ledger.CapDaily, 0},
		{"no caps", ledger.Caps{}, []int64{50, 50, 1}, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, key := NewAccount(t, s, 100, &tc.caps)
			last := len(tc.costs) - 1
			var holds []ledger.Reservation
			for i, cost := range tc.costs[:last] { // held, not committed: holds count against caps
				r, err := s.Reserve(bg, key, "matrix", cost, fmt.Sprintf("%s-%d", tc.name, i))
				if err != nil {
					t.Fatalf("reserve %d: %v", cost, err)
				}
				holds = append(holds, r)
			}
			_, err := s.Reserve(bg, key, "matrix", tc.costs[last], tc.name+"-last")
			var short *ledger.InsufficientCreditsError
			if !errors.As(err, &short) || short.Cap != tc.wantCap || short.CapRemaining != tc.remain {
				t.Fatalf("last Reserve = %v (%+v), want cap %q with %d remaining", err, short, tc.wantCap, tc.remain)
			}
			for _, r := range holds {
				if err := s.Commit(bg, r); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Reserve(bg, key, "matrix", tc.costs[last], tc.name+"-again"); !errors.Is(err, ledger.ErrInsufficientCredits) {
				t.Errorf("after committing, Reserve = %v, still want refusal", err)
			}
		})
	}
	_, key := NewAccount(t, s, 100, &ledger.Caps{Daily: 2})
	Charge(t, s, key, "directions", 2, "raise-1")
	if err := s.SetCaps(bg, key.AccountID, ledger.Caps{Daily: 3}); err != nil {
		t.Fatal(err)
	}
	Charge(t, s, key, "directions", 1, "raise-2")
	if a, _ := s.GetAccount(bg, key.AccountID); a.Caps != (ledger.Caps{Daily: 3}) {
		t.Errorf("caps after SetCaps = %+v", a.Caps)
	}
	MustVerify(t, s)
}

func contractCapsRollOver(t *testing.T, open Opener) {
	clock := NewFakeClock(time.Date(2026, 1, 31, 23, 59, 0, 0, time.UTC))
	s := open(t, ledger.Options{Now: clock.Now})
	_, key := NewAccount(t, s, 100, &ledger.Caps{Daily: 5, Monthly: 8})
	Charge(t, s, key, "isochrone", 5, "jan-31")
	if _, err := s.Reserve(bg, key, "directions", 1, "jan-31-b"); !errors.Is(err, ledger.ErrInsufficientCredits) {
		t.Fatalf("over the daily cap: %v", err)
	}
	clock.Set(time.Date(2026, 2, 1, 0, 0, 1, 0, time.FixedZone("UTC+3", 3*3600))) // still Jan 31 UTC
	if _, err := s.Reserve(bg, key, "directions", 1, "jan-31-c"); !errors.Is(err, ledger.ErrInsufficientCredits) {
		t.Fatalf("a local midnight ahead of UTC reset the cap: %v", err)
	}
	clock.Set(time.Date(2026, 2, 1, 0, 0, 1, 0, time.UTC))
	Charge(t, s, key, "isochrone", 5, "feb-1")
	a, _ := s.GetAccount(bg, key.AccountID)
	if a.Usage.Today != 5 || a.Usage.ThisMonth != 5 || a.Usage.AllTime != 10 {
		t.Errorf("usage on Feb 1 = %+v, want today 5, month 5, all time 10", a.Usage)
	}
	clock.Set(time.Date(2026, 2, 2, 0, 0, 1, 0, time.UTC))
	_, err := s.Reserve(bg, key, "isochrone", 5, "feb-2")
	var short *ledger.InsufficientCreditsError
	if !errors.As(err, &short) || short.Cap != ledger.CapMonthly {
		t.Fatalf("Feb 2 with 5 of 8 monthly spent: %v, want the monthly cap", err)
	}
	MustVerify(t, s)
}

// contractReleaseAcrossMidnight: releasing yesterday's hold must not free
// room under today's cap.
func contractReleaseAcrossMidnight(t *testing.T, open Opener) {
	clock := NewFakeClock(time.Date(2026, 5, 10, 23, 59, 59, 0, time.UTC))
	s := open(t, ledger.Options{Now: clock.Now})
	_, key := NewAccount(t, s, 100, &ledger.Caps{Daily: 5})
	yesterday, err := s.Reserve(bg, key, "isochrone", 5, "may-10")
	if err != nil {
		t.Fatal(err)
	}
	clock.Set(time.Date(2026, 5, 11, 0, 0, 1, 0, time.UTC))
	today, err := s.Reserve(bg, key, "isochrone", 5, "may-11")
	if err != nil {
		t.Fatalf("a new day with yesterday's hold outstanding: %v", err)
	}
	if err := s.Release(bg, yesterday); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reserve(bg, key, "directions", 1, "may-11-b"); !errors.Is(err, ledger.ErrInsufficientCredits) {
		t.Errorf("after releasing yesterday's hold, today's full cap let a request through: %v", err)
	}
	if err := s.Commit(bg, today); err != nil {
		t.Fatal(err)
	}
	a, _ := s.GetAccount(bg, key.AccountID)
	if a.Balance != 95 || a.Held != 0 || a.Usage.Today != 5 {
		t.Errorf("account %+v, want balance 95, nothing held, 5 spent today", a)
	}
	MustVerify(t, s)
}

func contractSuspendRestore(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	acct, key := NewAccount(t, s, 10, nil)
	if err := s.Suspend(bg, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reserve(bg, key, "directions", 1, "req-1"); !errors.Is(err, ledger.ErrAccountSuspended) {
		t.Errorf("Reserve on a suspended account = %v, want ErrAccountSuspended", err)
	}
	info, err := s.Authenticate(bg, acct.Key.Secret.Reveal())
	if err != nil || info.AccountStatus != ledger.StatusSuspended {
		t.Errorf("Authenticate after Suspend = %+v, %v; want status suspended", info, err)
	}
	if err := s.Restore(bg, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	Charge(t, s, key, "directions", 1, "req-2")
	if a, _ := s.GetAccount(bg, acct.AccountID); a.Status != ledger.StatusActive || a.Balance != 9 {
		t.Errorf("after Restore = %+v", a)
	}
}

func contractIssueAndRevokeKeys(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	acct, _ := NewAccount(t, s, 10, nil)
	pub, err := s.IssueKey(bg, acct.AccountID, ledger.KindPublic, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pub.Secret.Reveal(), "pk_") {
		t.Errorf("public key starts %q", pub.Secret.Reveal()[:3])
	}
	info, err := s.Authenticate(bg, pub.Secret.Reveal())
	if err != nil || info.Kind != ledger.KindPublic || info.RateLimit != 7 || info.KeyID != pub.KeyID {
		t.Errorf("Authenticate(public) = %+v, %v", info, err)
	}
	if err := s.RevokeKey(bg, acct.Key.KeyID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(bg, acct.Key.Secret.Reveal()); !errors.Is(err, ledger.ErrRevokedKey) {
		t.Errorf("Authenticate(revoked) = %v, want ErrRevokedKey", err)
	}
	if err := s.RevokeKey(bg, acct.Key.KeyID); err != nil {
		t.Errorf("revoking twice: %v", err)
	}
	if _, err := s.Authenticate(bg, pub.Secret.Reveal()); err != nil {
		t.Errorf("revoking one key affected another: %v", err)
	}
	a, _ := s.GetAccount(bg, acct.AccountID)
	if len(a.Keys) != 2 {
		t.Fatalf("keys = %+v, want 2", a.Keys)
	}
	for _, k := range a.Keys {
		if (k.KeyID == acct.Key.KeyID) != (k.RevokedAt != nil) {
			t.Errorf("key %+v: revocation shown wrong", k)
		}
	}
}

// contractFindKey: a key is found by id and by the hash of its secret,
// revoked or not, with its account; unknown ones and bad refs are errors
// that never hold the secret.
func contractFindKey(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	acct, _ := NewAccount(t, s, 10, nil)
	other, _ := NewAccount(t, s, 10, nil)
	pub, err := s.IssueKey(bg, acct.AccountID, ledger.KindPublic, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []ledger.IssuedKey{acct.Key, pub, other.Key} {
		hash, err := ledger.KeyHash(k.Secret.Reveal())
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range []ledger.KeyRef{{KeyID: k.KeyID}, {Hash: hash}} {
			d, err := s.FindKey(bg, ref)
			if err != nil || d.KeyID != k.KeyID || d.AccountID != k.AccountID || d.Kind != k.Kind || d.RateLimit != k.RateLimit || d.RevokedAt != nil {
				t.Errorf("FindKey(%+v) = %+v, %v; want key %s of %s", ref, d, err, k.KeyID, k.AccountID)
			}
		}
	}
	if err := s.RevokeKey(bg, pub.KeyID); err != nil {
		t.Fatal(err)
	}
	hash, _ := ledger.KeyHash(pub.Secret.Reveal())
	if d, err := s.FindKey(bg, ledger.KeyRef{Hash: hash}); err != nil || d.RevokedAt == nil {
		t.Errorf("FindKey(revoked) = %+v, %v; want it with its revocation", d, err)
	}
	fresh, _, err := ledger.NewKey(ledger.KindSecret) // a whole key the ledger never issued
	if err != nil {
		t.Fatal(err)
	}
	unknown, _ := ledger.KeyHash(fresh.Reveal())
	for _, ref := range []ledger.KeyRef{{KeyID: "key_nope"}, {Hash: unknown}} {
		if _, err := s.FindKey(bg, ref); !errors.Is(err, ledger.ErrUnknownKeyID) {
			t.Errorf("FindKey(%+v) = %v, want ErrUnknownKeyID", ref, err)
		}
	}
	for _, ref := range []ledger.KeyRef{{}, {KeyID: acct.Key.KeyID, Hash: hash}, {Hash: "zz"}} {
		if _, err := s.FindKey(bg, ref); !errors.Is(err, ledger.ErrInvalidArgument) {
			t.Errorf("FindKey(%+v) = %v, want ErrInvalidArgument", ref, err)
		}
	}
	if _, err := ledger.KeyHash(acct.Key.Secret.Reveal()[:40]); !errors.Is(err, ledger.ErrMalformedKey) || strings.Contains(err.Error(), acct.Key.Secret.Reveal()[:40]) {
		t.Errorf("KeyHash(a cut key) = %v, want ErrMalformedKey without the key", err)
	}
}

func contractAdminErrors(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	_, key := NewAccount(t, s, 10, nil)
	const nobody = "acct_nobody"
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"get", second(s.GetAccount(bg, nobody)), ledger.ErrUnknownAccount},
		{"suspend", s.Suspend(bg, nobody), ledger.ErrUnknownAccount},
		{"restore", s.Restore(bg, nobody), ledger.ErrUnknownAccount},
		{"add credits", second(s.AddCredits(bg, nobody, 5)), ledger.ErrUnknownAccount},
		{"add zero credits", second(s.AddCredits(bg, key.AccountID, 0)), ledger.ErrInvalidArgument},
		{"issue key", second(s.IssueKey(bg, nobody, ledger.KindSecret, 0)), ledger.ErrUnknownAccount},
		{"issue bad kind", second(s.IssueKey(bg, key.AccountID, "admin", 0)), ledger.ErrInvalidArgument},
		{"negative rate", second(s.IssueKey(bg, key.AccountID, ledger.KindSecret, -1)), ledger.ErrInvalidArgument},
		{"revoke", s.RevokeKey(bg, "key_nobody"), ledger.ErrUnknownKeyID},
		{"set caps", s.SetCaps(bg, nobody, ledger.Caps{}), ledger.ErrUnknownAccount},
		{"negative caps", s.SetCaps(bg, key.AccountID, ledger.Caps{Daily: -1}), ledger.ErrInvalidArgument},
		{"negative credits", second(s.CreateAccount(bg, -1, nil)), ledger.ErrInvalidArgument},
		{"reserve zero", second(s.Reserve(bg, key, "directions", 0, "r")), ledger.ErrInvalidArgument},
		{"reserve no request id", second(s.Reserve(bg, key, "directions", 1, "")), ledger.ErrInvalidArgument},
		{"reserve long request id", second(s.Reserve(bg, key, "directions", 1, strings.Repeat("r", 65))), ledger.ErrInvalidArgument},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if b, err := s.AddCredits(bg, key.AccountID, 5); err != nil || b != 15 {
		t.Errorf("AddCredits = %d, %v; want 15", b, err)
	}
	MustVerify(t, s)
}

func second[T any](_ T, err error) error { return err }

func contractDuplicateRequestID(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	_, key := NewAccount(t, s, 10, nil)
	Charge(t, s, key, "directions", 1, "same")
	r, err := s.Reserve(bg, key, "directions", 1, "same")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(bg, r); !errors.Is(err, ledger.ErrDuplicateRequest) {
		t.Fatalf("second Commit with one request id = %v, want ErrDuplicateRequest", err)
	}
	a, _ := s.GetAccount(bg, key.AccountID)
	if a.Balance != 9 || a.Held != 0 {
		t.Errorf("after the refused duplicate: balance %d held %d, want 9 and 0", a.Balance, a.Held)
	}
	MustVerify(t, s)
}
