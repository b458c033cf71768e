package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// opener opens a fresh, empty ledger for one test.
type opener func(t *testing.T, opts Options) Store

// runContract is the behaviour every Store must show. Both implementations
// run it (TestBoltContract, TestPostgresContract).
func runContract(t *testing.T, open opener) {
	cases := []struct {
		name string
		run  func(t *testing.T, open opener)
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
		{"LegacyKeys", contractLegacyKeys},
		{"RotateKey", contractRotateKey},
		{"UsageReport", contractUsageReport},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

var bg = context.Background()

// newAccount creates an account with the given credits and caps and
// authenticates its first key.
func newAccount(t *testing.T, s Store, credits int64, caps *Caps) (NewAccount, KeyInfo) {
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

func mustVerify(t *testing.T, s Store) {
	t.Helper()
	report, err := s.Verify(bg)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if !report.OK() {
		t.Fatalf("Verify found mismatches: %+v", report.Mismatches)
	}
}

func balanceOf(t *testing.T, s Store, accountID string) int64 {
	t.Helper()
	a, err := s.GetAccount(bg, accountID)
	if err != nil {
		t.Fatalf("GetAccount(%s): %v", accountID, err)
	}
	return a.Balance
}

func charge(t *testing.T, s Store, key KeyInfo, op string, credits int64, requestID string) {
	t.Helper()
	r, err := s.Reserve(bg, key, op, credits, requestID)
	if err != nil {
		t.Fatalf("Reserve(%s, %d): %v", op, credits, err)
	}
	if err := s.Commit(bg, r); err != nil {
		t.Fatalf("Commit(%s): %v", requestID, err)
	}
}

func contractCreateAndAuthenticate(t *testing.T, open opener) {
	s := open(t, Options{})
	acct, info := newAccount(t, s, 100, nil)
	secret := acct.Key.Secret.Reveal()
	if !strings.HasPrefix(secret, "sk_") || len(secret) != keyLen || !checksumOK([]byte(secret)) {
		t.Errorf("secret key has shape %q... (%d characters), want sk_ and %d characters ending in their checksum", secret[:3], len(secret), keyLen-3)
	}
	if !strings.HasPrefix(acct.AccountID, "acct_") || !strings.HasPrefix(acct.Key.KeyID, "key_") {
		t.Errorf("ids %q, %q lack their prefixes", acct.AccountID, acct.Key.KeyID)
	}
	want := KeyInfo{KeyID: acct.Key.KeyID, AccountID: acct.AccountID, Kind: KindSecret, AccountStatus: StatusActive}
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
	if a.Balance != 100 || a.Status != StatusActive || a.Caps != DefaultCaps() || len(a.Keys) != 1 {
		t.Errorf("GetAccount = %+v, want balance 100, active, default caps, one key", a)
	}
	mustVerify(t, s)
}

func contractRefusedKeys(t *testing.T, open opener) {
	s := open(t, Options{})
	acct, _ := newAccount(t, s, 1, nil)
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
		{"empty", "", ErrMalformedKey},
		{"no prefix", real[3:], ErrMalformedKey},
		{"wrong prefix", "xk_" + real[3:], ErrMalformedKey},
		{"too short", real[:len(real)-1], ErrMalformedKey},
		{"uppercase", strings.ToUpper(real), ErrMalformedKey},
		{"bad character", real[:len(real)-1] + "!", ErrMalformedKey},
		{"mistyped", mistyped, ErrMalformedKey},
		{"unknown", unknown, ErrUnknownKey},
		{"unknown public", "pk_" + unknown[3:], ErrUnknownKey},
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

func contractReserveCommitCharges(t *testing.T, open opener) {
	s := open(t, Options{})
	acct, key := newAccount(t, s, 100, nil)
	charge(t, s, key, "directions", 3, "req-1")
	charge(t, s, key, "matrix", 10, "req-2")
	charge(t, s, key, "directions", 1, "req-3")
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 86 || a.Held != 0 {
		t.Errorf("balance %d held %d, want 86 and 0", a.Balance, a.Held)
	}
	wantUsage := UsageTotals{Today: 14, ThisMonth: 14, AllTime: 14, Requests: 3, ByOperation: map[string]OperationTotals{
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
	if _, err := s.LookupUsage(bg, "req-404"); !errors.Is(err, ErrUnknownRequest) {
		t.Errorf("LookupUsage(unknown) = %v, want ErrUnknownRequest", err)
	}
	mustVerify(t, s)
}

func contractReleaseCostsNothing(t *testing.T, open opener) {
	s := open(t, Options{})
	acct, key := newAccount(t, s, 10, nil)
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
	if _, err := s.LookupUsage(bg, "req-1"); !errors.Is(err, ErrUnknownRequest) {
		t.Errorf("a released request has a usage record: %v", err)
	}
	mustVerify(t, s)
}

func contractFinishedReservations(t *testing.T, open opener) {
	s := open(t, Options{})
	_, key := newAccount(t, s, 10, nil)
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
		"commit made-up one": s.Commit(bg, Reservation{ID: 999999, AccountID: key.AccountID, RequestID: "x"}),
	} {
		if !errors.Is(err, ErrUnknownReservation) {
			t.Errorf("%s: %v, want ErrUnknownReservation", name, err)
		}
	}
	if b := balanceOf(t, s, key.AccountID); b != 9 {
		t.Errorf("balance %d, want 9", b)
	}
	mustVerify(t, s)
}

func contractInsufficientCredits(t *testing.T, open opener) {
	s := open(t, Options{})
	_, key := newAccount(t, s, 7, nil)
	held, err := s.Reserve(bg, key, "isochrone", 5, "req-1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Reserve(bg, key, "isochrone", 5, "req-2")
	var short *InsufficientCreditsError
	if !errors.Is(err, ErrInsufficientCredits) || !errors.As(err, &short) {
		t.Fatalf("Reserve beyond balance = %v, want *InsufficientCreditsError", err)
	}
	if short.Balance != 2 || short.Cost != 5 || short.Cap != "" {
		t.Errorf("error = %+v, want available balance 2, cost 5, no cap", short)
	}
	if err := s.Commit(bg, held); err != nil {
		t.Fatal(err)
	}
	charge(t, s, key, "directions", 2, "req-3")
	_, err = s.Reserve(bg, key, "directions", 1, "req-4")
	if !errors.As(err, &short) || short.Balance != 0 {
		t.Errorf("Reserve at zero balance = %v, want balance 0", err)
	}
	mustVerify(t, s)
}

func contractCaps(t *testing.T, open opener) {
	s := open(t, Options{})
	tests := []struct {
		name    string
		caps    Caps
		costs   []int64 // charged in order; the last one must fail
		wantCap string
		remain  int64
	}{
		{"daily", Caps{Daily: 10}, []int64{4, 4, 3}, CapDaily, 2},
		{"monthly", Caps{Monthly: 6}, []int64{5, 2}, CapMonthly, 1},
		{"daily before monthly", Caps{Daily: 3, Monthly: 100}, []int64{3, 1}, CapDaily, 0},
		{"no caps", Caps{}, []int64{50, 50, 1}, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, key := newAccount(t, s, 100, &tc.caps)
			last := len(tc.costs) - 1
			var holds []Reservation
			for i, cost := range tc.costs[:last] { // held, not committed: holds count against caps
				r, err := s.Reserve(bg, key, "matrix", cost, fmt.Sprintf("%s-%d", tc.name, i))
				if err != nil {
					t.Fatalf("reserve %d: %v", cost, err)
				}
				holds = append(holds, r)
			}
			_, err := s.Reserve(bg, key, "matrix", tc.costs[last], tc.name+"-last")
			var short *InsufficientCreditsError
			if !errors.As(err, &short) || short.Cap != tc.wantCap || short.CapRemaining != tc.remain {
				t.Fatalf("last Reserve = %v (%+v), want cap %q with %d remaining", err, short, tc.wantCap, tc.remain)
			}
			for _, r := range holds {
				if err := s.Commit(bg, r); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Reserve(bg, key, "matrix", tc.costs[last], tc.name+"-again"); !errors.Is(err, ErrInsufficientCredits) {
				t.Errorf("after committing, Reserve = %v, still want refusal", err)
			}
		})
	}
	_, key := newAccount(t, s, 100, &Caps{Daily: 2})
	charge(t, s, key, "directions", 2, "raise-1")
	if err := s.SetCaps(bg, key.AccountID, Caps{Daily: 3}); err != nil {
		t.Fatal(err)
	}
	charge(t, s, key, "directions", 1, "raise-2")
	if a, _ := s.GetAccount(bg, key.AccountID); a.Caps != (Caps{Daily: 3}) {
		t.Errorf("caps after SetCaps = %+v", a.Caps)
	}
	mustVerify(t, s)
}

func contractCapsRollOver(t *testing.T, open opener) {
	clock := newFakeClock(time.Date(2026, 1, 31, 23, 59, 0, 0, time.UTC))
	s := open(t, Options{Now: clock.Now})
	_, key := newAccount(t, s, 100, &Caps{Daily: 5, Monthly: 8})
	charge(t, s, key, "isochrone", 5, "jan-31")
	if _, err := s.Reserve(bg, key, "directions", 1, "jan-31-b"); !errors.Is(err, ErrInsufficientCredits) {
		t.Fatalf("over the daily cap: %v", err)
	}
	clock.Set(time.Date(2026, 2, 1, 0, 0, 1, 0, time.FixedZone("UTC+3", 3*3600))) // still Jan 31 UTC
	if _, err := s.Reserve(bg, key, "directions", 1, "jan-31-c"); !errors.Is(err, ErrInsufficientCredits) {
		t.Fatalf("a local midnight ahead of UTC reset the cap: %v", err)
	}
	clock.Set(time.Date(2026, 2, 1, 0, 0, 1, 0, time.UTC))
	charge(t, s, key, "isochrone", 5, "feb-1")
	a, _ := s.GetAccount(bg, key.AccountID)
	if a.Usage.Today != 5 || a.Usage.ThisMonth != 5 || a.Usage.AllTime != 10 {
		t.Errorf("usage on Feb 1 = %+v, want today 5, month 5, all time 10", a.Usage)
	}
	clock.Set(time.Date(2026, 2, 2, 0, 0, 1, 0, time.UTC))
	_, err := s.Reserve(bg, key, "isochrone", 5, "feb-2")
	var short *InsufficientCreditsError
	if !errors.As(err, &short) || short.Cap != CapMonthly {
		t.Fatalf("Feb 2 with 5 of 8 monthly spent: %v, want the monthly cap", err)
	}
	mustVerify(t, s)
}

// contractReleaseAcrossMidnight: releasing yesterday's hold must not free
// room under today's cap.
func contractReleaseAcrossMidnight(t *testing.T, open opener) {
	clock := newFakeClock(time.Date(2026, 5, 10, 23, 59, 59, 0, time.UTC))
	s := open(t, Options{Now: clock.Now})
	_, key := newAccount(t, s, 100, &Caps{Daily: 5})
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
	if _, err := s.Reserve(bg, key, "directions", 1, "may-11-b"); !errors.Is(err, ErrInsufficientCredits) {
		t.Errorf("after releasing yesterday's hold, today's full cap let a request through: %v", err)
	}
	if err := s.Commit(bg, today); err != nil {
		t.Fatal(err)
	}
	a, _ := s.GetAccount(bg, key.AccountID)
	if a.Balance != 95 || a.Held != 0 || a.Usage.Today != 5 {
		t.Errorf("account %+v, want balance 95, nothing held, 5 spent today", a)
	}
	mustVerify(t, s)
}

func contractSuspendRestore(t *testing.T, open opener) {
	s := open(t, Options{})
	acct, key := newAccount(t, s, 10, nil)
	if err := s.Suspend(bg, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reserve(bg, key, "directions", 1, "req-1"); !errors.Is(err, ErrAccountSuspended) {
		t.Errorf("Reserve on a suspended account = %v, want ErrAccountSuspended", err)
	}
	info, err := s.Authenticate(bg, acct.Key.Secret.Reveal())
	if err != nil || info.AccountStatus != StatusSuspended {
		t.Errorf("Authenticate after Suspend = %+v, %v; want status suspended", info, err)
	}
	if err := s.Restore(bg, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	charge(t, s, key, "directions", 1, "req-2")
	if a, _ := s.GetAccount(bg, acct.AccountID); a.Status != StatusActive || a.Balance != 9 {
		t.Errorf("after Restore = %+v", a)
	}
}

func contractIssueAndRevokeKeys(t *testing.T, open opener) {
	s := open(t, Options{})
	acct, _ := newAccount(t, s, 10, nil)
	pub, err := s.IssueKey(bg, acct.AccountID, KindPublic, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pub.Secret.Reveal(), "pk_") {
		t.Errorf("public key starts %q", pub.Secret.Reveal()[:3])
	}
	info, err := s.Authenticate(bg, pub.Secret.Reveal())
	if err != nil || info.Kind != KindPublic || info.RateLimit != 7 || info.KeyID != pub.KeyID {
		t.Errorf("Authenticate(public) = %+v, %v", info, err)
	}
	if err := s.RevokeKey(bg, acct.Key.KeyID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(bg, acct.Key.Secret.Reveal()); !errors.Is(err, ErrRevokedKey) {
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
func contractFindKey(t *testing.T, open opener) {
	s := open(t, Options{})
	acct, _ := newAccount(t, s, 10, nil)
	other, _ := newAccount(t, s, 10, nil)
	pub, err := s.IssueKey(bg, acct.AccountID, KindPublic, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []IssuedKey{acct.Key, pub, other.Key} {
		hash, err := KeyHash(k.Secret.Reveal())
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range []KeyRef{{KeyID: k.KeyID}, {Hash: hash}} {
			d, err := s.FindKey(bg, ref)
			if err != nil || d.KeyID != k.KeyID || d.AccountID != k.AccountID || d.Kind != k.Kind || d.RateLimit != k.RateLimit || d.RevokedAt != nil {
				t.Errorf("FindKey(%+v) = %+v, %v; want key %s of %s", ref, d, err, k.KeyID, k.AccountID)
			}
		}
	}
	if err := s.RevokeKey(bg, pub.KeyID); err != nil {
		t.Fatal(err)
	}
	hash, _ := KeyHash(pub.Secret.Reveal())
	if d, err := s.FindKey(bg, KeyRef{Hash: hash}); err != nil || d.RevokedAt == nil {
		t.Errorf("FindKey(revoked) = %+v, %v; want it with its revocation", d, err)
	}
	fresh, _, err := newKey(KindSecret) // a whole key the ledger never issued
	if err != nil {
		t.Fatal(err)
	}
	unknown, _ := KeyHash(fresh.Reveal())
	for _, ref := range []KeyRef{{KeyID: "key_nope"}, {Hash: unknown}} {
		if _, err := s.FindKey(bg, ref); !errors.Is(err, ErrUnknownKeyID) {
			t.Errorf("FindKey(%+v) = %v, want ErrUnknownKeyID", ref, err)
		}
	}
	for _, ref := range []KeyRef{{}, {KeyID: acct.Key.KeyID, Hash: hash}, {Hash: "zz"}} {
		if _, err := s.FindKey(bg, ref); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("FindKey(%+v) = %v, want ErrInvalidArgument", ref, err)
		}
	}
	if _, err := KeyHash(acct.Key.Secret.Reveal()[:40]); !errors.Is(err, ErrMalformedKey) || strings.Contains(err.Error(), acct.Key.Secret.Reveal()[:40]) {
		t.Errorf("KeyHash(a cut key) = %v, want ErrMalformedKey without the key", err)
	}
}

func contractAdminErrors(t *testing.T, open opener) {
	s := open(t, Options{})
	_, key := newAccount(t, s, 10, nil)
	const nobody = "acct_nobody"
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"get", second(s.GetAccount(bg, nobody)), ErrUnknownAccount},
		{"suspend", s.Suspend(bg, nobody), ErrUnknownAccount},
		{"restore", s.Restore(bg, nobody), ErrUnknownAccount},
		{"add credits", second(s.AddCredits(bg, nobody, 5)), ErrUnknownAccount},
		{"add zero credits", second(s.AddCredits(bg, key.AccountID, 0)), ErrInvalidArgument},
		{"issue key", second(s.IssueKey(bg, nobody, KindSecret, 0)), ErrUnknownAccount},
		{"issue bad kind", second(s.IssueKey(bg, key.AccountID, "admin", 0)), ErrInvalidArgument},
		{"negative rate", second(s.IssueKey(bg, key.AccountID, KindSecret, -1)), ErrInvalidArgument},
		{"revoke", s.RevokeKey(bg, "key_nobody"), ErrUnknownKeyID},
		{"set caps", s.SetCaps(bg, nobody, Caps{}), ErrUnknownAccount},
		{"negative caps", s.SetCaps(bg, key.AccountID, Caps{Daily: -1}), ErrInvalidArgument},
		{"negative credits", second(s.CreateAccount(bg, -1, nil)), ErrInvalidArgument},
		{"reserve zero", second(s.Reserve(bg, key, "directions", 0, "r")), ErrInvalidArgument},
		{"reserve no request id", second(s.Reserve(bg, key, "directions", 1, "")), ErrInvalidArgument},
		{"reserve long request id", second(s.Reserve(bg, key, "directions", 1, strings.Repeat("r", 65))), ErrInvalidArgument},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if b, err := s.AddCredits(bg, key.AccountID, 5); err != nil || b != 15 {
		t.Errorf("AddCredits = %d, %v; want 15", b, err)
	}
	mustVerify(t, s)
}

func second[T any](_ T, err error) error { return err }

func contractDuplicateRequestID(t *testing.T, open opener) {
	s := open(t, Options{})
	_, key := newAccount(t, s, 10, nil)
	charge(t, s, key, "directions", 1, "same")
	r, err := s.Reserve(bg, key, "directions", 1, "same")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(bg, r); !errors.Is(err, ErrDuplicateRequest) {
		t.Fatalf("second Commit with one request id = %v, want ErrDuplicateRequest", err)
	}
	a, _ := s.GetAccount(bg, key.AccountID)
	if a.Balance != 9 || a.Held != 0 {
		t.Errorf("after the refused duplicate: balance %d held %d, want 9 and 0", a.Balance, a.Held)
	}
	mustVerify(t, s)
}
