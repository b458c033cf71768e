package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIRefusesWhatItDoesNotKnow: a mistyped or missing subcommand, an
// unknown or misplaced flag, exit non-zero with what was probably meant; a
// script never reads help on stdout as success.
func TestCLIRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string // in stderr
	}{
		{[]string{"key", "create", "acct_x"}, []string{`unknown command "create" for "mapd key"`, `did you mean "mapd key issue"`}},
		{[]string{"key"}, []string{`"mapd key" needs a subcommand`, "issue, revoke, rotate, show"}},
		{[]string{"account", "shw", "acct_x"}, []string{`did you mean "mapd account show"`}},
		{[]string{"keyy"}, []string{`did you mean "mapd key"`}},
		{[]string{"account", "show", "acct_x", "--ledgr", "x"}, []string{"unknown flag: --ledgr", "did you mean --ledger?"}},
		{[]string{"account", "show", "acct_x", "--kind", "public"}, []string{"--kind is a flag of mapd key issue"}},
		{[]string{"serve", "--rate-limit-stor", "memory"}, []string{"did you mean --rate-limit or --rate-limit-store?"}},
	} {
		out, errb, err := cli(c.args...)
		if err == nil {
			t.Errorf("mapd %s exits 0; stdout:\n%s", strings.Join(c.args, " "), out)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(string(errb), w) {
				t.Errorf("mapd %s: stderr %q, want %q in it", strings.Join(c.args, " "), errb, w)
			}
		}
		if len(out) != 0 {
			t.Errorf("mapd %s printed on stdout: %s", strings.Join(c.args, " "), out)
		}
	}
}

// TestKeyBySecret: an operator holding a leaked secret finds and revokes
// its key with the secret itself; neither the answer nor any error shows
// more of it than its last four characters.
func TestKeyBySecret(t *testing.T) {
	dsn := ledgerFile(t)
	a := createAccount(t, dsn, 10)
	other := createAccount(t, dsn, 10)
	show := mustCLI(t, "key", "show", a.Secret, "--ledger", dsn)
	var d struct {
		KeyID     string  `json:"key_id"`
		AccountID string  `json:"account_id"`
		Kind      string  `json:"kind"`
		RevokedAt *string `json:"revoked_at"`
	}
	if err := json.Unmarshal(show, &d); err != nil || d.KeyID != a.KeyID || d.AccountID != a.ID || d.Kind != "secret" || d.RevokedAt != nil {
		t.Fatalf("key show SECRET = %s (%v), want key %s of %s", show, err, a.KeyID, a.ID)
	}
	if strings.Contains(string(show), a.Secret[3:]) {
		t.Errorf("key show echoes the secret: %s", show)
	}
	revoked := mustCLI(t, "key", "revoke", a.Secret, "--ledger", dsn)
	if !strings.Contains(string(revoked), a.KeyID) || strings.Contains(string(revoked), a.Secret[3:]) {
		t.Errorf("key revoke SECRET = %s, want the key id and not the secret", revoked)
	}
	if err := json.Unmarshal(mustCLI(t, "key", "show", a.KeyID, "--ledger", dsn), &d); err != nil || d.RevokedAt == nil {
		t.Errorf("key show KEY_ID after the revoke: %+v, %v; want revoked_at", d, err)
	}
	d.RevokedAt = nil
	if err := json.Unmarshal(mustCLI(t, "key", "show", other.Secret, "--ledger", dsn), &d); err != nil || d.RevokedAt != nil || d.KeyID != other.KeyID {
		t.Errorf("the other account's key: %+v, %v; want it untouched", d, err)
	}
	cut := a.Secret[:len(a.Secret)-1] // not copied whole
	for _, args := range [][]string{
		{"key", "revoke", cut},
		{"key", "show", cut},
		{"account", "show", a.Secret}, // a secret where an id belongs
		{"credits", "add", a.Secret, "5"},
	} {
		_, errb, err := cli(append(args, "--ledger", dsn)...)
		if err == nil {
			t.Errorf("mapd %s succeeded", args[:2])
			continue
		}
		if strings.Contains(string(errb), a.Secret[3:len(a.Secret)-5]) {
			t.Errorf("mapd %s: the error shows the secret: %s", args[:2], errb)
		}
		if !strings.Contains(string(errb), "sk_…") {
			t.Errorf("mapd %s: the error %q does not name the key by its last characters", args[:2], errb)
		}
	}
	if _, errb, _ := cli("key", "revoke", cut, "--ledger", dsn); !strings.Contains(string(errb), "was it copied whole?") || !strings.Contains(string(errb), "sk_…"+cut[len(cut)-4:]) {
		t.Errorf("revoking a cut key: %s", errb)
	}
}

// TestLedgerInitPrintsURLsAsTyped: JSON output is not HTML-escaped, so a
// path or URL with & reads as typed, not \u0026.
func TestLedgerInitPrintsURLsAsTyped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a&b<c>.db")
	out := mustCLI(t, "ledger", "init", "--ledger", path)
	if !strings.Contains(string(out), "a&b<c>.db") || strings.Contains(string(out), `\u0026`) {
		t.Errorf("ledger init printed %s, want the path as typed", out)
	}
}
