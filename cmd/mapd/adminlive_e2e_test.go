package main

// End-to-end tests of the admin commands against a serving mapd (through
// its admin socket) under load, and against the file with none running.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/admin"
	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// loadRun keeps clients sending one-point elevations with a key until
// stopped, and collects the request ids of the 200s and any other answer.
type loadRun struct {
	stopped atomic.Bool
	wg      sync.WaitGroup
	mu      sync.Mutex
	ok      []string
	others  map[int]int
	failed  int
}

func startLoad(t *testing.T, s *mapdProc, key string, clients int) *loadRun {
	l := &loadRun{others: map[int]int{}}
	for range clients {
		l.wg.Go(func() {
			for !l.stopped.Load() {
				r, err := s.send(t, "/v1/elevation", bearer(key), elevationBody(1))
				l.mu.Lock()
				switch {
				case err != nil:
					l.failed++
				case r.status == 200:
					id, _ := r.body["request_id"].(string)
					l.ok = append(l.ok, id)
				default:
					l.others[r.status]++
				}
				l.mu.Unlock()
			}
		})
	}
	return l
}

// stop ends the load and returns the ids of its 200s; anything else fails
// the test.
func (l *loadRun) stop(t *testing.T) []string {
	t.Helper()
	l.stopped.Store(true)
	l.wg.Wait()
	if l.failed > 0 || len(l.others) > 0 {
		t.Errorf("the load got %d unanswered requests and other statuses %v", l.failed, l.others)
	}
	return l.ok
}

// jsonOut runs an admin command that must succeed and decodes its output.
func jsonOut(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out := mustCLI(t, args...)
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("mapd %s printed %q: %v", strings.Join(args, " "), out, err)
	}
	return v
}

// TestAdminLive runs every admin command against a mapd serving the
// embedded ledger under load (8 clients), checks that each change is seen
// by the very next request, and then, with mapd stopped, that the commands
// open the file themselves and print the same as they did through the
// socket.
func TestAdminLive(t *testing.T) {
	dsn := ledgerFile(t)
	busy := createAccount(t, dsn, 10_000_000, "--daily", "0")
	s := serveMetered(t, dsn, "--rate-limit", "1000000")
	if fi, err := os.Lstat(admin.SocketPath(dsn)); err != nil || fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Fatalf("admin socket: %v %v, want a socket of mode 0600 beside the ledger", fi, err)
	}
	load, loadStart := startLoad(t, s, busy.Secret, 8), time.Now()
	post := func(key string) reply { return s.call(t, "/v1/elevation", bearer(key), elevationBody(1)) }
	expect := func(what string, key string, status int) {
		t.Helper()
		if r := post(key); r.status != status {
			t.Errorf("%s: the next request got %d, want %d: %s", what, r.status, status, r.raw)
		}
	}
	flag := []string{"--ledger", dsn}
	with := func(args ...string) []string { return append(args, flag...) }

	// account create: the key works at once.
	c := createAccount(t, dsn, 0, "--daily", "0")
	expect("account create with 0 credits", c.Secret, 402)
	// credits add: the next request is served.
	if got := jsonOut(t, with("credits", "add", c.ID, "10")...); got["balance"] != 10.0 {
		t.Errorf("credits add printed %v", got)
	}
	expect("credits add", c.Secret, 200)
	// account suspend / restore.
	jsonOut(t, with("account", "suspend", c.ID)...)
	expect("account suspend", c.Secret, 403)
	jsonOut(t, with("account", "restore", c.ID)...)
	expect("account restore", c.Secret, 200)
	// caps set: a daily cap of what was spent so far refuses the next one.
	jsonOut(t, with("caps", "set", c.ID, "--daily", "2")...)
	expect("caps set --daily 2 after 2 credits", c.Secret, 402)
	jsonOut(t, with("caps", "set", c.ID, "--daily", "0")...)
	expect("caps set --daily 0", c.Secret, 200)
	// key issue / revoke.
	keyID, key := issueKey(t, dsn, c.ID, "secret")
	expect("key issue", key, 200)
	jsonOut(t, with("key", "revoke", keyID)...)
	expect("key revoke", key, 401)
	// key rotate with no grace: the old key is refused at once, the new one served.
	rotated := jsonOut(t, with("key", "rotate", c.KeyID, "--grace", "0")...)
	next, _ := rotated["secret_key"].(string)
	expect("key rotate --grace 0, old key", c.Secret, 401)
	expect("key rotate --grace 0, new key", next, 200)
	// key rotate with a grace period: both work until it ends.
	rotated = jsonOut(t, with("key", "rotate", rotated["key_id"].(string), "--grace", "1h")...)
	expect("key rotate --grace 1h, old key", next, 200)
	expect("key rotate --grace 1h, new key", rotated["secret_key"].(string), 200)
	if at, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(rotated["old_key_revoked_at"])); time.Until(at) < 59*time.Minute {
		t.Errorf("key rotate --grace 1h printed %v", rotated)
	}
	// usage, ledger verify, migrate and init while charges flow, and again
	// once the load stopped, for the comparison with mapd stopped below.
	today := time.Now().UTC().Format(time.DateOnly)
	someIDs := func() []string {
		load.mu.Lock()
		defer load.mu.Unlock()
		if len(load.ok) < 2 {
			t.Fatal("the load got fewer than two 200s")
		}
		return []string{load.ok[0], load.ok[len(load.ok)-1]}
	}
	readOnly := func(ids []string) [][]string {
		return [][]string{
			{"account", "show", busy.ID},
			{"account", "show", c.ID},
			append([]string{"usage", "show"}, ids...),
			{"usage", "export", "--account", busy.ID, "--from", "2020-01-01", "--to", today},
			{"usage", "export", "--account", c.ID, "--from", "2020-01-01", "--to", today, "--format", "csv"},
			{"ledger", "verify"},
			{"ledger", "migrate"},
			{"ledger", "init"},
		}
	}
	for _, args := range readOnly(someIDs()) {
		mustCLI(t, with(args...)...)
	}
	t.Logf("admin commands under load: %v", time.Since(loadStart))
	ids := load.stop(t)
	found, missing := usageOf(t, dsn, ids[:min(len(ids), 200)])
	if len(missing) > 0 || len(found) == 0 {
		t.Errorf("usage show: %d of the load's 200s have no record", len(missing))
	}
	live := map[string][]byte{}
	stable := readOnly([]string{ids[0], ids[len(ids)-1]})
	for _, args := range stable {
		live[strings.Join(args, " ")] = mustCLI(t, with(args...)...)
	}
	var report struct {
		Totals  struct{ Requests, Credits int64 }
		Balance struct{ Closing int64 }
	}
	if err := json.Unmarshal(live["usage export --account "+busy.ID+" --from 2020-01-01 --to "+today], &report); err != nil ||
		report.Totals.Requests != int64(len(ids)) || report.Balance.Closing != 10_000_000-int64(len(ids)) {
		t.Errorf("usage export of the loaded account: %+v (%v), want %d requests and a closing balance of %d",
			report, err, len(ids), 10_000_000-len(ids))
	}
	t.Logf("load and live commands: %v; %d requests served under load", time.Since(loadStart), len(ids))
	s.stop(t)
	if _, err := os.Lstat(admin.SocketPath(dsn)); err == nil {
		t.Errorf("the admin socket outlived mapd")
	}

	// No mapd: the same commands open the file and print the same.
	// ledger verify describes the journal too, which differs between the
	// serving process (the charges of its epoch) and a fresh open (none).
	for _, args := range stable {
		got, want := mustCLI(t, with(args...)...), live[strings.Join(args, " ")]
		if args[0] == "ledger" && args[1] == "verify" {
			got, want = withoutJournal(t, got), withoutJournal(t, want)
		}
		if string(got) != string(want) {
			t.Errorf("mapd %s: with mapd stopped it printed\n%s\nthrough the socket\n%s", strings.Join(args, " "), got, want)
		}
	}
	// And the commands that change the ledger work on the file.
	jsonOut(t, with("credits", "add", c.ID, "5")...)
	jsonOut(t, with("account", "suspend", c.ID)...)
	jsonOut(t, with("key", "revoke", rotated["key_id"].(string))...)
	verifyLedger(t, dsn)
	s = serveMetered(t, dsn)
	expect("suspended with mapd stopped", next, 403)
}

// TestAdminAfterKill9: a mapd killed with -9 leaves its socket behind; the
// commands then open the file (and replay its journal) instead of failing,
// and the next mapd takes the socket over.
func TestAdminAfterKill9(t *testing.T) {
	dsn := ledgerFile(t)
	a := createAccount(t, dsn, 100)
	s := serveMetered(t, dsn)
	if r := s.call(t, "/v1/elevation", bearer(a.Secret), elevationBody(1)); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	s.kill9()
	if _, err := os.Lstat(admin.SocketPath(dsn)); err != nil {
		t.Fatalf("no stale socket after kill -9: %v", err)
	}
	if got := showAccount(t, dsn, a.ID); got.Balance != 99 {
		t.Errorf("balance %d after one charge, want 99", got.Balance)
	}
	s = serveMetered(t, dsn)
	jsonOut(t, "account", "suspend", a.ID, "--ledger", dsn)
	if r := s.call(t, "/v1/elevation", bearer(a.Secret), elevationBody(1)); r.status != 403 {
		t.Errorf("suspended through the new mapd's socket: %d", r.status)
	}
}

// TestAdminNoSilentLedger: commands other than account create and ledger
// init refuse a ledger that does not exist, create nothing, and name the
// ledger nearby; serve refuses too.
func TestAdminNoSilentLedger(t *testing.T) {
	dir := t.TempDir()
	real := dir + "/ledger.db"
	mustCLI(t, "ledger", "init", "--ledger", real)
	typo := dir + "/ledgr.db"
	for _, args := range [][]string{
		{"account", "show", "acct_x"}, {"credits", "add", "acct_x", "1"}, {"key", "revoke", "key_x"},
		{"caps", "set", "acct_x", "--daily", "1"}, {"usage", "show", "req_x"}, {"ledger", "verify"}, {"ledger", "migrate"},
		{"usage", "export", "--account", "acct_x", "--from", "2026-01-01", "--to", "2026-01-31"},
		{"serve", "--data", compiletest.Andorra(t), "--listen", freeAddr(t)},
	} {
		_, errb, err := cli(append(args, "--ledger", typo)...)
		if err == nil || !strings.Contains(string(errb), "does not exist") || !strings.Contains(string(errb), "did you mean --ledger "+real) {
			t.Errorf("mapd %s on a missing ledger: %v\n%s", strings.Join(args, " "), err, errb)
		}
		if _, err := os.Stat(typo); err == nil {
			t.Fatalf("mapd %s created %s", strings.Join(args, " "), typo)
		}
	}
	if out := jsonOut(t, "ledger", "init", "--ledger", typo); out["created"] != true {
		t.Errorf("ledger init printed %v", out)
	}
}

// withoutJournal drops the journal's description from ledger verify's
// output, after checking that it is there.
func withoutJournal(t *testing.T, out []byte) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("ledger verify printed %q: %v", out, err)
	}
	if j, ok := v["journal"].(map[string]any); !ok || j["size"] == nil {
		t.Errorf("ledger verify does not describe the journal: %s", out)
	}
	delete(v, "journal")
	b, _ := json.Marshal(v)
	return b
}
