package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	bolt "go.etcd.io/bbolt"

	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// runAdmin executes one admin command line and returns stdout and the error.
func runAdmin(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := &cobra.Command{Use: "mapd", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(newAdminCommands()...)
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// mustAdmin runs a command that must succeed and decodes its JSON output.
func mustAdmin(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, err := runAdmin(t, args...)
	if err != nil {
		t.Fatalf("mapd %s: %v", strings.Join(args, " "), err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("mapd %s printed %q, not JSON: %v", strings.Join(args, " "), out, err)
	}
	return v
}

// runAdminScenario walks every admin command against one ledger.
func runAdminScenario(t *testing.T, dsn string) {
	created := mustAdmin(t, "account", "create", "--credits", "100", "--ledger", dsn)
	id, _ := created["account_id"].(string)
	secret, _ := created["secret_key"].(string)
	if !strings.HasPrefix(id, "acct_") || !strings.HasPrefix(secret, "sk_") || created["key_id"] == nil {
		t.Fatalf("account create printed %v", created)
	}

	shown := mustAdmin(t, "account", "show", id, "--ledger", dsn)
	if shown["balance"] != 100.0 || shown["status"] != "active" {
		t.Errorf("account show = %v", shown)
	}
	if caps := shown["caps"].(map[string]any); caps["daily"] != 100000.0 || caps["monthly"] != 0.0 {
		t.Errorf("default caps = %v, want daily 100000, monthly 0", caps)
	}
	out, _ := runAdmin(t, "account", "show", id, "--ledger", dsn)
	if strings.Contains(out, secret[3:]) {
		t.Errorf("account show prints the secret key")
	}

	steps := []struct {
		args  []string
		field string
		want  any
	}{
		{[]string{"credits", "add", id, "25"}, "balance", 125.0},
		{[]string{"account", "suspend", id}, "status", "suspended"},
		{[]string{"account", "restore", id}, "status", "active"},
		{[]string{"caps", "set", id, "--monthly", "500"}, "caps", map[string]any{"daily": 100000.0, "monthly": 500.0}},
		{[]string{"caps", "set", id, "--daily", "0"}, "caps", map[string]any{"daily": 0.0, "monthly": 500.0}},
		{[]string{"key", "issue", id, "--kind", "public", "--rate", "7"}, "rate_limit", 7.0},
		{[]string{"key", "revoke", created["key_id"].(string)}, "revoked", true},
		{[]string{"ledger", "verify"}, "ok", true},
		{[]string{"ledger", "migrate"}, "migrated", true},
	}
	for _, st := range steps {
		got := mustAdmin(t, append(st.args, "--ledger", dsn)...)
		if b1, _ := json.Marshal(got[st.field]); string(b1) != mustJSON(st.want) {
			t.Errorf("mapd %s: %s = %v, want %v", strings.Join(st.args, " "), st.field, got[st.field], st.want)
		}
	}

	issued := mustAdmin(t, "key", "issue", id, "--ledger", dsn)
	if s, _ := issued["secret_key"].(string); !strings.HasPrefix(s, "sk_") || issued["kind"] != "secret" {
		t.Errorf("key issue (default kind) = %v", issued)
	}
	shown = mustAdmin(t, "account", "show", id, "--ledger", dsn)
	if keys := shown["keys"].([]any); len(keys) != 3 {
		t.Errorf("account show lists %d keys, want 3", len(keys))
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestAdminCommandsBolt(t *testing.T) {
	runAdminScenario(t, filepath.Join(t.TempDir(), "ledger.db"))
}

func TestAdminCommandsPostgres(t *testing.T) {
	runAdminScenario(t, newAdminPostgresDSN(t))
}

func TestAdminErrors(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "ledger.db")
	id := mustAdmin(t, "account", "create", "--credits", "1", "--ledger", dsn)["account_id"].(string)
	tests := []struct {
		args    []string
		errPart string
	}{
		{[]string{"account", "create"}, "credits"},
		{[]string{"account", "create", "--credits", "-3"}, "invalid argument"},
		{[]string{"account", "show", "acct_nobody"}, "unknown account"},
		{[]string{"credits", "add", id, "zero"}, "positive integer"},
		{[]string{"credits", "add", id, "0"}, "positive integer"},
		{[]string{"key", "issue", id, "--kind", "admin"}, "key kind"},
		{[]string{"key", "revoke", "key_nobody"}, "unknown key id"},
		{[]string{"caps", "set", id}, "--daily"},
		{[]string{"account", "suspend"}, "accepts 1 arg"},
	}
	for _, tc := range tests {
		_, err := runAdmin(t, append(tc.args, "--ledger", dsn)...)
		if err == nil || !strings.Contains(err.Error(), tc.errPart) {
			t.Errorf("mapd %s: error %v, want one mentioning %q", strings.Join(tc.args, " "), err, tc.errPart)
		}
	}
}

// TestAdminVerifyFails: a ledger whose books do not balance makes
// `ledger verify` print the mismatch and fail (non-zero exit in main).
func TestAdminVerifyFails(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "ledger.db")
	id := mustAdmin(t, "account", "create", "--credits", "10", "--ledger", dsn)["account_id"].(string)
	tamperBalance(t, dsn, id, 99)
	out, err := runAdmin(t, "ledger", "verify", "--ledger", dsn)
	if err == nil || !strings.Contains(err.Error(), "1 of 1 accounts do not balance") {
		t.Errorf("ledger verify on a bad ledger: %v", err)
	}
	if !strings.Contains(out, id) || !strings.Contains(out, `"ok": false`) {
		t.Errorf("ledger verify printed %q, want the mismatching account", out)
	}
}

// tamperBalance rewrites an account's balance in the bbolt file directly.
func tamperBalance(t *testing.T, path, accountID string, balance int64) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("accounts"))
		var rec map[string]any
		if err := json.Unmarshal(b.Get([]byte(accountID)), &rec); err != nil {
			return err
		}
		rec["balance"] = balance
		raw, _ := json.Marshal(rec)
		return b.Put([]byte(accountID), raw)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// newAdminPostgresDSN gives the test a schema of its own in the local
// "test" database; PostgreSQL being down fails the test.
func newAdminPostgresDSN(t *testing.T) string {
	dsn, _ := ledgertest.PostgresSchema(t, "mapd_admin_test_")
	return dsn
}

// TestAdminMissingSchema: a PostgreSQL URL whose search_path names no
// schema is refused by ledger migrate (and init) with that reason, not as
// an unavailable backend; a schema without the tables is refused by
// everything but init and account create.
func TestAdminMissingSchema(t *testing.T) {
	missing := ledgertest.AdminDSN + "&search_path=mapd_no_such_schema"
	for _, cmd := range [][]string{{"ledger", "migrate"}, {"ledger", "init"}, {"account", "show", "acct_x"}} {
		_, err := runAdmin(t, append(cmd, "--ledger", missing)...)
		if err == nil || !strings.Contains(err.Error(), `no schema of the search_path "mapd_no_such_schema" exists`) ||
			strings.Contains(err.Error(), "unavailable") {
			t.Errorf("mapd %s on a missing schema: %v", strings.Join(cmd, " "), err)
		}
	}
	empty := newAdminPostgresDSN(t)
	if _, err := runAdmin(t, "ledger", "migrate", "--ledger", empty); err == nil || !strings.Contains(err.Error(), "holds no ledger tables") {
		t.Errorf("ledger migrate on an empty schema: %v", err)
	}
	if out := mustAdmin(t, "ledger", "init", "--ledger", empty); out["created"] != true || strings.Contains(fmt.Sprint(out["ledger"]), "password") {
		t.Errorf("ledger init printed %v", out)
	}
	mustAdmin(t, "ledger", "migrate", "--ledger", empty)
}
