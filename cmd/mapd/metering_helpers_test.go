package main

// Helpers of the metering end-to-end tests (metering_e2e_test.go): real mapd
// processes on a ledger the test controls (an embedded file or a fresh
// PostgreSQL schema), the admin commands of the same binary, and a TCP proxy
// that can take Redis or PostgreSQL away from a running mapd.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

const (
	redisURL  = "redis://127.0.0.1:6379/0"
	redisHint = "start it with: redis-server --daemonize yes"
)

// pgSchemaDSN gives the test a schema of its own on the PostgreSQL of
// 127.0.0.1:5432 and returns a ledger DSN whose search_path selects it.
func pgSchemaDSN(t *testing.T) (dsn, schema string) {
	return ledgertest.PostgresSchema(t, "mapd_e2e_")
}

// needRedis fails the test unless Redis answers on 127.0.0.1:6379.
func needRedis(t *testing.T) {
	t.Helper()
	opts, _ := redis.ParseURL(redisURL)
	c := redis.NewClient(opts)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis on 127.0.0.1:6379 is unreachable (%v); %s", err, redisHint)
	}
}

// cli runs an admin command of the mapd binary.
func cli(args ...string) (stdout, stderr []byte, err error) {
	var out, errb bytes.Buffer
	cmd := exec.Command(mapdBin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// mustCLI runs an admin command that must succeed and returns its stdout.
func mustCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	out, errb, err := cli(args...)
	if err != nil {
		t.Fatalf("mapd %s: %v\n%s", strings.Join(args, " "), err, errb)
	}
	return out
}

// testAccount is an account made by `mapd account create`.
type testAccount struct {
	ID     string `json:"account_id"`
	KeyID  string `json:"key_id"`
	Secret string `json:"secret_key"`
}

// createAccount runs `mapd account create --credits N` with extra flags.
func createAccount(t *testing.T, dsn string, credits int64, extra ...string) testAccount {
	t.Helper()
	out := mustCLI(t, append([]string{"account", "create", "--ledger", dsn, "--credits", fmt.Sprint(credits)}, extra...)...)
	var a testAccount
	if err := json.Unmarshal(out, &a); err != nil || !strings.HasPrefix(a.Secret, "sk_") {
		t.Fatalf("account create printed %q: %v", out, err)
	}
	return a
}

// issueKey runs `mapd key issue ID --kind KIND` and returns the key id and
// the key itself.
func issueKey(t *testing.T, dsn, accountID, kind string, extra ...string) (keyID, key string) {
	t.Helper()
	out := mustCLI(t, append([]string{"key", "issue", accountID, "--ledger", dsn, "--kind", kind}, extra...)...)
	var k map[string]any
	if err := json.Unmarshal(out, &k); err != nil {
		t.Fatalf("key issue printed %q: %v", out, err)
	}
	keyID, _ = k["key_id"].(string)
	key, _ = k[kind+"_key"].(string)
	if keyID == "" || key == "" {
		t.Fatalf("key issue printed %q", out)
	}
	return keyID, key
}

// showAccount runs `mapd account show ID`.
func showAccount(t *testing.T, dsn, accountID string) ledger.Account {
	t.Helper()
	out := mustCLI(t, "account", "show", accountID, "--ledger", dsn)
	var a ledger.Account
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatalf("account show printed %q: %v", out, err)
	}
	return a
}

// verifyLedger runs `mapd ledger verify`, which must pass.
func verifyLedger(t *testing.T, dsn string) {
	t.Helper()
	out, errb, err := cli("ledger", "verify", "--ledger", dsn)
	var v struct {
		OK bool `json:"ok"`
	}
	if err != nil || json.Unmarshal(out, &v) != nil || !v.OK {
		t.Fatalf("mapd ledger verify: %v\n%s%s", err, out, errb)
	}
}

// usageOf runs `mapd usage show` on the ids and returns the records found
// and the ids without one.
func usageOf(t *testing.T, dsn string, ids []string) (map[string]ledger.Usage, []string) {
	t.Helper()
	found := map[string]ledger.Usage{}
	var missing []string
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 2000)] // well under the argument limit
		ids = ids[len(batch):]
		out, errb, err := cli(append([]string{"usage", "show", "--ledger", dsn}, batch...)...)
		dec := json.NewDecoder(bytes.NewReader(out))
		for {
			var u ledger.Usage
			if derr := dec.Decode(&u); derr == io.EOF {
				break
			} else if derr != nil {
				t.Fatalf("usage show printed %q: %v", out, derr)
			}
			found[u.RequestID] = u
		}
		if err != nil && !strings.Contains(string(errb), "no usage record for") {
			t.Fatalf("mapd usage show: %v\n%s", err, errb)
		}
		for _, id := range batch {
			if _, ok := found[id]; !ok {
				missing = append(missing, id)
			}
		}
	}
	return found, missing
}

// mapdProc is a `mapd serve` the test starts, stops or kills.
type mapdProc struct {
	base        string
	metricsBase string // http://host:port of its --metrics-listen
	cmd         *exec.Cmd
	mu          sync.Mutex
	log         bytes.Buffer
	done        chan struct{} // closed once the process is reaped
}

// serveMetered starts `mapd serve` on Andorra with the given ledger and
// extra flags, and waits for its "serving" line.
func serveMetered(t *testing.T, dsn string, extra ...string) *mapdProc {
	t.Helper()
	addr, maddr := freeAddr(t), freeAddr(t)
	args := append([]string{"serve", "--listen", addr, "--metrics-listen", maddr, "--data", compiletest.Andorra(t), "--ledger", dsn}, extra...)
	cmd := exec.Command(mapdBin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &mapdProc{base: "http://" + addr, metricsBase: "http://" + maddr, cmd: cmd, done: make(chan struct{})}
	serving := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		once := false
		for sc.Scan() {
			p.mu.Lock()
			p.log.Write(append(sc.Bytes(), '\n'))
			p.mu.Unlock()
			if !once && bytes.Contains(sc.Bytes(), []byte(`"msg":"serving"`)) {
				once = true
				close(serving)
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.stop(t) })
	select {
	case <-serving:
	case <-p.done:
		t.Fatalf("mapd %s exited before serving:\n%s", strings.Join(args, " "), p.logText())
	case <-time.After(20 * time.Second):
		t.Fatalf("mapd did not serve within 20 s:\n%s", p.logText())
	}
	return p
}

func (p *mapdProc) logText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// stop sends SIGTERM and waits for the exit (killing after 10 s).
func (p *mapdProc) stop(t *testing.T) {
	select {
	case <-p.done:
		return
	default:
	}
	// mapd's drain waits for keep-alive connections to go: hang up ours.
	meterClient.CloseIdleConnections()
	start := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	defer func() { t.Logf("mapd stopped in %v", time.Since(start).Round(time.Millisecond)) }()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Errorf("mapd did not stop within 10 s of SIGTERM")
		p.cmd.Process.Kill()
		<-p.done
	}
}

// kill9 kills mapd with SIGKILL and waits until it is reaped.
func (p *mapdProc) kill9() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// meterClient has room for the load tests' 64 concurrent connections.
var meterClient = &http.Client{
	Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 128, IdleConnTimeout: 30 * time.Second},
	Timeout:   30 * time.Second,
}

// send posts body to path with the Authorization header authz (none if
// empty). It returns an error only when no HTTP answer came back; every
// answer is checked against the OpenAPI document.
func (p *mapdProc) send(t *testing.T, path, authz, body string) (reply, error) {
	req, err := http.NewRequest(http.MethodPost, p.base+path, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	resp, err := meterClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, err
	}
	validateResponse(t, http.MethodPost, path, resp.StatusCode, resp.Header, raw)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		return r, fmt.Errorf("POST %s: %d body is not JSON: %v", path, resp.StatusCode, err)
	}
	return r, nil
}

// call is send for a request that must be answered.
func (p *mapdProc) call(t *testing.T, path, authz, body string) reply {
	t.Helper()
	r, err := p.send(t, path, authz, body)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	return r
}

// bearer is the Authorization header value for key.
func bearer(key string) string { return "Bearer " + key }

// Request bodies on Andorra.
var (
	wpA = [2]float64{1.5218, 42.5063} // Andorra la Vella
	wpB = [2]float64{1.5970, 42.5340} // Encamp
)

// directionsBody has n waypoints alternating between wpA and wpB.
func directionsBody(n int) string {
	pts := make([][2]float64, n)
	for i := range pts {
		pts[i] = wpA
		if i%2 == 1 {
			pts[i] = wpB
		}
	}
	b, _ := json.Marshal(map[string]any{"coordinates": pts})
	return string(b)
}

// matrixBody has sources × targets elements.
func matrixBody(sources, targets int) string {
	s, d := make([][2]float64, sources), make([][2]float64, targets)
	for i := range s {
		s[i] = wpA
	}
	for i := range d {
		d[i] = wpB
	}
	b, _ := json.Marshal(map[string]any{"sources": s, "targets": d})
	return string(b)
}

// elevationBody has n points in Andorra.
func elevationBody(n int) string {
	pts := make([][2]float64, n)
	for i := range pts {
		pts[i] = [2]float64{1.45 + float64(i%50)*0.006, 42.45 + float64(i/50)*0.006}
	}
	b, _ := json.Marshal(map[string]any{"coordinates": pts})
	return string(b)
}

const isochroneBody = `{"origin":[1.5218,42.5063],"contours":[{"time_minutes":5}]}`

// tcpProxy forwards connections to target; down cuts every connection and
// stops listening, up listens again on the same address, stall cuts every
// connection and then accepts new ones without ever answering (a backend
// that hangs rather than refuses).
type tcpProxy struct {
	t       *testing.T
	addr    string
	target  string
	mu      sync.Mutex
	ln      net.Listener
	conns   map[net.Conn]struct{}
	stalled bool
}

func newProxy(t *testing.T, target string) *tcpProxy {
	p := &tcpProxy{t: t, addr: freeAddr(t), target: target, conns: map[net.Conn]struct{}{}}
	p.up()
	t.Cleanup(p.down)
	return p
}

func (p *tcpProxy) up() {
	var ln net.Listener
	var err error
	for range 50 { // the port may linger briefly after down
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatalf("proxy listen %s: %v", p.addr, err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

func (p *tcpProxy) forward(c net.Conn) {
	p.mu.Lock()
	if p.stalled {
		p.conns[c] = struct{}{} // held open, never answered, until down
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	u, err := net.DialTimeout("tcp", p.target, 2*time.Second)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // went down meanwhile
		p.mu.Unlock()
		c.Close()
		u.Close()
		return
	}
	p.conns[c], p.conns[u] = struct{}{}, struct{}{}
	p.mu.Unlock()
	go func() { io.Copy(u, c); u.Close(); c.Close() }()
	io.Copy(c, u)
	c.Close()
	u.Close()
}

func (p *tcpProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	p.stalled = false
	p.cut()
}

func (p *tcpProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled = true
	p.cut()
}

// cut closes every connection; p.mu is held.
func (p *tcpProxy) cut() {
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// statusCounts tallies statuses; "err" counts requests without an answer.
type statusCounts map[string]int

func (c statusCounts) String() string {
	var b strings.Builder
	for _, k := range []string{"200", "402", "429", "503", "err"} {
		if c[k] > 0 {
			fmt.Fprintf(&b, "%s:%d ", k, c[k])
		}
	}
	for k, v := range c {
		if k != "200" && k != "402" && k != "429" && k != "503" && k != "err" {
			fmt.Fprintf(&b, "%s:%d ", k, v)
		}
	}
	return strings.TrimSpace(b.String())
}

// ledgerFile is a fresh embedded ledger path.
func ledgerFile(t *testing.T) string { return filepath.Join(t.TempDir(), "ledger.db") }
