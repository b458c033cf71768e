package admin

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/open"
)

var bg = context.Background()

// serveLedger opens an embedded ledger in a temp dir and serves it on its
// admin socket; it returns the store (the server side) and the socket path.
func serveLedger(t *testing.T) (ledger.Store, string) {
	t.Helper()
	dir := t.TempDir()
	store, err := open.Open(bg, filepath.Join(dir, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := SocketPath(filepath.Join(dir, "ledger.db"))
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(store, nil)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("closing the server: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		store.Close()
	})
	return store, path
}

func dialT(t *testing.T, path string) *Client {
	t.Helper()
	c, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClientMatchesStore runs every ledger.Admin method through the socket
// and checks its answer against the store mapd serves from.
func TestClientMatchesStore(t *testing.T) {
	store, path := serveLedger(t)
	c := dialT(t, path)
	acct, err := c.CreateAccount(bg, 100, &ledger.Caps{Daily: 50})
	if err != nil {
		t.Fatal(err)
	}
	info, err := store.Authenticate(bg, acct.Key.Secret.Reveal())
	if err != nil || info.AccountID != acct.AccountID || info.KeyID != acct.Key.KeyID {
		t.Fatalf("the key issued through the socket: %+v, %v", info, err)
	}
	r, err := store.Reserve(bg, info, "matrix", 7, "req-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Commit(bg, r); err != nil {
		t.Fatal(err)
	}
	if b, err := c.AddCredits(bg, acct.AccountID, 5); err != nil || b != 98 {
		t.Errorf("AddCredits = %d, %v; want 98", b, err)
	}
	if err := c.SetCaps(bg, acct.AccountID, ledger.Caps{Monthly: 9}); err != nil {
		t.Fatal(err)
	}
	pub, err := c.IssueKey(bg, acct.AccountID, ledger.KindPublic, 3)
	if err != nil || !strings.HasPrefix(pub.Secret.Reveal(), "pk_") || pub.RateLimit != 3 {
		t.Errorf("IssueKey = %+v, %v", pub, err)
	}
	next, end, err := c.RotateKey(bg, pub.KeyID, time.Hour)
	if err != nil || next.Kind != ledger.KindPublic || time.Until(end) < 59*time.Minute {
		t.Errorf("RotateKey = %+v, %v, %v", next, end, err)
	}
	if err := c.RevokeKey(bg, acct.Key.KeyID); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Authenticate(bg, acct.Key.Secret.Reveal()); !errors.Is(err, ledger.ErrRevokedKey) {
		t.Errorf("a key revoked through the socket: %v, want ErrRevokedKey at once", err)
	}
	if err := c.Suspend(bg, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Reserve(bg, info, "matrix", 1, "req-2"); !errors.Is(err, ledger.ErrAccountSuspended) {
		t.Errorf("Reserve after a suspension through the socket: %v", err)
	}
	if err := c.Restore(bg, acct.AccountID); err != nil {
		t.Fatal(err)
	}
	for name, pair := range map[string][2]func() (any, error){
		"GetAccount": {
			func() (any, error) { return c.GetAccount(bg, acct.AccountID) },
			func() (any, error) { return store.GetAccount(bg, acct.AccountID) }},
		"LookupUsage": {
			func() (any, error) { return c.LookupUsage(bg, "req-1") },
			func() (any, error) { return store.LookupUsage(bg, "req-1") }},
		"UsageReport": {
			func() (any, error) { return c.UsageReport(bg, acct.AccountID, time.Now(), time.Now()) },
			func() (any, error) { return store.UsageReport(bg, acct.AccountID, time.Now(), time.Now()) }},
		"Verify": {
			func() (any, error) { return c.Verify(bg) },
			func() (any, error) { return store.Verify(bg) }},
	} {
		remote, rerr := pair[0]()
		local, lerr := pair[1]()
		rj, _ := json.Marshal(remote)
		lj, _ := json.Marshal(local)
		if rerr != nil || lerr != nil || string(rj) != string(lj) {
			t.Errorf("%s through the socket = %s, %v\nthe store's own answer = %s, %v", name, rj, rerr, lj, lerr)
		}
	}
	if err := c.Migrate(bg); err != nil {
		t.Errorf("Migrate: %v", err)
	}
}

// TestErrorsReadTheSame: a ledger error through the socket has the
// store's message and matches its sentinel.
func TestErrorsReadTheSame(t *testing.T) {
	store, path := serveLedger(t)
	c := dialT(t, path)
	cases := []struct {
		name           string
		remote, direct error
		sentinel       error
	}{
		{"unknown account", second(c.GetAccount(bg, "acct_nobody")), second(store.GetAccount(bg, "acct_nobody")), ledger.ErrUnknownAccount},
		{"unknown key", c.RevokeKey(bg, "key_nobody"), store.RevokeKey(bg, "key_nobody"), ledger.ErrUnknownKeyID},
		{"unknown request", second(c.LookupUsage(bg, "req_nobody")), second(store.LookupUsage(bg, "req_nobody")), ledger.ErrUnknownRequest},
		{"bad credits", second(c.AddCredits(bg, "acct_x", -1)), second(store.AddCredits(bg, "acct_x", -1)), ledger.ErrInvalidArgument},
	}
	for _, tc := range cases {
		if tc.remote == nil || tc.remote.Error() != tc.direct.Error() || !errors.Is(tc.remote, tc.sentinel) {
			t.Errorf("%s: through the socket %v, directly %v; want the same, matching %v", tc.name, tc.remote, tc.direct, tc.sentinel)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestSocketMode: the socket is mode 0600 from the start, and goes away
// when the server closes.
func TestSocketMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db-admin.sock")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a socket of mode 0600", fi.Mode())
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("the directory holds %d entries after Listen, want the socket alone", len(entries))
	}
	ln.Close()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the socket survived Close: %v", err)
	}
}

// TestNoServer: no socket, and a stale one a killed mapd left, both say
// ErrNoServer; Listen replaces the stale one and refuses a regular file.
func TestNoServer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db-admin.sock")
	if _, err := Dial(path); !errors.Is(err, ErrNoServer) {
		t.Errorf("Dial without a socket: %v, want ErrNoServer", err)
	}
	stale, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	stale.SetUnlinkOnClose(false)
	stale.Close()
	if _, err := Dial(path); !errors.Is(err, ErrNoServer) {
		t.Errorf("Dial of a stale socket: %v, want ErrNoServer", err)
	}
	ln, err := Listen(path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	ln.Close()
	if err := os.WriteFile(path, []byte("not a socket"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Listen over a regular file: %v, want a refusal", err)
	}
}

// TestLongPath: a socket path longer than a socket address holds works
// both ways (through /proc/self/fd).
func TestLongPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	store, err := open.Open(bg, filepath.Join(dir, "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	path := SocketPath(filepath.Join(dir, "ledger.db"))
	if len(path) <= maxSocketPath {
		t.Fatalf("path %d bytes long: not long enough for the test", len(path))
	}
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(store, nil)
	go srv.Serve(ln)
	defer srv.Close()
	c := dialT(t, path)
	if _, err := c.CreateAccount(bg, 1, nil); err != nil {
		t.Errorf("CreateAccount over a long socket path: %v", err)
	}
}

// TestConcurrentClients: many clients at once add credits to one account;
// every grant counts once.
func TestConcurrentClients(t *testing.T) {
	store, path := serveLedger(t)
	acct, err := store.CreateAccount(bg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			c, err := Dial(path)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			for range 20 {
				if _, err := c.AddCredits(bg, acct.AccountID, 1); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	a, err := store.GetAccount(bg, acct.AccountID)
	if err != nil || a.Balance != 320 {
		t.Errorf("balance %d, %v; want 320", a.Balance, err)
	}
}

// TestCloseWaitsForRequests: Close lets a request in flight answer, ends
// idle connections, and later calls fail as unavailable.
func TestCloseWaitsForRequests(t *testing.T) {
	dir := t.TempDir()
	slow := &slowAdmin{Admin: nil, started: make(chan struct{}), release: make(chan struct{})}
	path := filepath.Join(dir, "s.sock")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(slow, nil)
	go srv.Serve(ln)
	busy, idle := dialT(t, path), dialT(t, path)
	errc := make(chan error, 1)
	go func() { errc <- busy.Migrate(bg) }()
	<-slow.started
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned with a request in flight")
	case <-time.After(100 * time.Millisecond):
	}
	close(slow.release)
	if err := <-errc; err != nil {
		t.Errorf("the request in flight: %v, want its answer", err)
	}
	<-closed
	if err := idle.Migrate(bg); !errors.Is(err, ledger.ErrUnavailable) {
		t.Errorf("a call after Close: %v, want ErrUnavailable", err)
	}
}

// slowAdmin's Migrate waits until released.
type slowAdmin struct {
	ledger.Admin
	started, release chan struct{}
}

func (s *slowAdmin) Migrate(ctx context.Context) error {
	close(s.started)
	<-s.release
	return nil
}

// TestBadRequests: what a client cannot send.
func TestBadRequests(t *testing.T) {
	_, path := serveLedger(t)
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	for _, tc := range []struct{ line, want string }{
		{`not json`, "not JSON"},
		{`{"op":"drop_tables"}`, `unknown admin op "drop_tables"`},
		{`{"op":"get_account","args":{"acount_id":"x"}}`, `unknown field "acount_id"`},
		{`{"op":"add_credits","args":{"account_id":"x","credits":"ten"}}`, "admin arguments"},
	} {
		fmt.Fprintln(conn, tc.line)
		line, err := readLine(r)
		if err != nil {
			t.Fatal(err)
		}
		var resp response
		if err := json.Unmarshal(line, &resp); err != nil || resp.Error == nil ||
			resp.Error.Code != "invalid_argument" || !strings.Contains(resp.Error.Message, tc.want) {
			t.Errorf("%s: answer %s, want an invalid_argument error saying %q", tc.line, line, tc.want)
		}
	}
}

// FuzzHandle: no request line makes the server panic, and every answer is
// a result or an error.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{`{"op":"verify"}`, `{"op":"get_account","args":{"account_id":"acct_x"}}`,
		`{"op":"rotate_key","args":{"key_id":"k","grace_ns":-1}}`, `{"op":"usage_report","args":{"from":"2026-01-01T00:00:00Z"}}`,
		`{`, `[]`, `{"op":null,"args":[1]}`} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	store, err := open.Open(bg, filepath.Join(dir, "ledger.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	srv := NewServer(store, nil)
	f.Fuzz(func(t *testing.T, line []byte) {
		resp := srv.handle(line)
		if (resp.Error == nil) == (resp.Result == nil) {
			t.Errorf("answer to %q has both or neither of result and error: %+v", line, resp)
		}
	})
}
