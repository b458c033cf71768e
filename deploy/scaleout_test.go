package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/ledger"
)

// The scale-out test: nginx (the recipe's configuration) in front of three
// mapd replicas on one PostgreSQL ledger and one Redis limiter, under load
// from clients drawing requests the way users do. One replica is killed
// with kill -9 mid-load and started again later. The test checks that the
// balancer routes around the dead replica and back to it, that no charge is
// lost (every 200 has its usage record, with the credits it reported) or
// doubled (request ids are unique, and the ledger holds no more charges
// than the 200s plus the requests that failed in flight), and that the
// books balance; it reports failed requests and throughput.
//
// MAPD_SOAK=DURATION (e.g. 10m) runs a soak instead: a replica killed and
// restarted every 10 s, in turn, for the whole duration.

// loadClients is how many clients send requests at once, each one request
// at a time.
const loadClients = 16

// outcome is what one request got.
type outcome struct {
	at        time.Duration // since the load began
	status    int           // 0: no HTTP answer
	requestID string
	credits   int64
	latency   time.Duration
}

// loadGen sends requests through nginx until stopped.
type loadGen struct {
	base, key string
	start     time.Time
	stopped   atomic.Bool
	wg        sync.WaitGroup
	mu        sync.Mutex
	outcomes  []outcome
}

func startLoad(base, key string) *loadGen {
	g := &loadGen{base: base, key: key, start: time.Now()}
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: loadClients, IdleConnTimeout: time.Minute},
		Timeout:   30 * time.Second,
	}
	for c := range loadClients {
		g.wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 42))
			for !g.stopped.Load() {
				o := g.send(client, rng)
				g.mu.Lock()
				g.outcomes = append(g.outcomes, o)
				g.mu.Unlock()
			}
		})
	}
	return g
}

func (g *loadGen) stop() []outcome {
	g.stopped.Store(true)
	g.wg.Wait()
	return g.outcomes
}

// send posts one request drawn as users draw them: points uniform over
// Andorra, mostly elevation profiles of 1–20 points, some directions
// between two points (which may be unroutable: 422, no charge).
func (g *loadGen) send(client *http.Client, rng *rand.Rand) outcome {
	point := func() [2]float64 { return [2]float64{1.42 + rng.Float64()*0.35, 42.44 + rng.Float64()*0.2} }
	path := "/v1/elevation"
	pts := make([][2]float64, 1+rng.IntN(20))
	if rng.IntN(4) == 0 {
		path, pts = "/v1/directions", make([][2]float64, 2)
	}
	for i := range pts {
		pts[i] = point()
	}
	body, _ := json.Marshal(map[string]any{"coordinates": pts})
	req, _ := http.NewRequest(http.MethodPost, g.base+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+g.key)
	began := time.Now()
	o := outcome{at: began.Sub(g.start)}
	resp, err := client.Do(req)
	if err != nil {
		o.latency = time.Since(began)
		return o
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	o.latency = time.Since(began)
	if err != nil {
		return o
	}
	o.status = resp.StatusCode
	if o.status == 200 {
		var answer struct {
			RequestID string `json:"request_id"`
			Credits   int64  `json:"credits_charged"`
		}
		if json.Unmarshal(raw, &answer) != nil || answer.RequestID == "" || answer.Credits <= 0 {
			o.status = -1 // a 200 that does not say what it charged
		}
		o.requestID, o.credits = answer.RequestID, answer.Credits
	}
	return o
}

// failed reports whether an outcome is a failure from the client's side:
// no answer, a 5xx, or an answer it cannot read. 422 (unroutable) is an
// answer, not a failure.
func (o outcome) failed() bool { return o.status <= 0 || o.status >= 500 }

// phase summarises the outcomes between two instants.
type phase struct {
	name                   string
	from, to               time.Duration
	ok, answered, failed   int
	statuses               map[int]int
	p50, p99               time.Duration
	okPerSecond, perSecond float64
}

func summarise(name string, all []outcome, from, to time.Duration) phase {
	p := phase{name: name, from: from, to: to, statuses: map[int]int{}}
	var lat []time.Duration
	for _, o := range all {
		if o.at < from || o.at >= to {
			continue
		}
		p.statuses[o.status]++
		lat = append(lat, o.latency)
		switch {
		case o.failed():
			p.failed++
		case o.status == 200:
			p.ok++
			p.answered++
		default:
			p.answered++
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		p.p50, p.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	}
	secs := (to - from).Seconds()
	p.okPerSecond, p.perSecond = float64(p.ok)/secs, float64(p.answered+p.failed)/secs
	return p
}

func (p phase) String() string {
	return fmt.Sprintf("%-28s %5.1f–%5.1f s: %5d requests (%6.1f/s), %5d 200s (%6.1f/s), %3d failed; p50 %v p99 %v; statuses %v",
		p.name, p.from.Seconds(), p.to.Seconds(), p.answered+p.failed, p.perSecond, p.ok, p.okPerSecond, p.failed,
		p.p50.Round(100*time.Microsecond), p.p99.Round(100*time.Microsecond), p.statuses)
}

// cluster is the whole recipe, up.
type cluster struct {
	ledgerURL string
	replicas  []*replica
	nginx     string
	key       string
	accountID string
	credits   int64
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	c := &cluster{ledgerURL: pgSchema(t), credits: 100_000_000}
	redisURL := startRedis(t)
	data := compiletest.Andorra(t)
	mustRun(t, mapdBin, "ledger", "init", "--ledger", c.ledgerURL)
	var acct struct {
		AccountID string `json:"account_id"`
		SecretKey string `json:"secret_key"`
	}
	out := mustRun(t, mapdBin, "account", "create", "--credits", fmt.Sprint(c.credits), "--daily", "0", "--ledger", c.ledgerURL)
	if err := json.Unmarshal(out, &acct); err != nil {
		t.Fatalf("account create printed %q: %v", out, err)
	}
	c.key, c.accountID = acct.SecretKey, acct.AccountID
	ports := []int{freePort(t), freePort(t), freePort(t)}
	for i, port := range ports {
		c.replicas = append(c.replicas, startReplica(t, i+1, port, data, c.ledgerURL, redisURL))
	}
	c.nginx = startNginx(t, ports)
	return c
}

func mustRun(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// head sends HEAD to url and returns the status and whether a body came.
func head(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Head(url)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if n, _ := io.Copy(io.Discard, resp.Body); n != 0 {
		t.Errorf("HEAD %s: %d bytes of body", url, n)
	}
	return resp.StatusCode
}

func TestScaleOut(t *testing.T) {
	if soak := os.Getenv("MAPD_SOAK"); soak != "" {
		d, err := time.ParseDuration(soak)
		if err != nil {
			t.Fatalf("MAPD_SOAK=%q: %v", soak, err)
		}
		runSoak(t, d)
		return
	}
	c := startCluster(t)
	for _, url := range []string{c.nginx + "/v1/health/live", c.nginx + "/v1/health/ready",
		fmt.Sprintf("http://127.0.0.1:%d/v1/health/ready", c.replicas[0].port)} {
		if s := head(t, url); s != 200 {
			t.Errorf("HEAD %s: %d, want 200", url, s)
		}
	}

	// Three replicas, then kill -9 of one, then that one back.
	const before, dead, after = 2 * time.Second, 3 * time.Second, 4 * time.Second
	load := startLoad(c.nginx, c.key)
	time.Sleep(before)
	victim := c.replicas[1]
	servedBefore := victim.served()
	killedAt := time.Since(load.start)
	victim.kill9()
	if s := head(t, fmt.Sprintf("http://127.0.0.1:%d/v1/health/live", victim.port)); s != 0 {
		t.Errorf("the killed replica still answers HEAD: %d", s)
	}
	time.Sleep(dead)
	restartedAt := time.Since(load.start)
	victim.restart(t, 2)
	time.Sleep(after)
	outcomes := load.stop()
	end := time.Since(load.start)

	phases := []phase{
		summarise("three replicas", outcomes, 0, killedAt),
		summarise("one killed (kill -9)", outcomes, killedAt, restartedAt),
		summarise("killed one restarted", outcomes, restartedAt, end),
		summarise("whole run", outcomes, 0, end),
	}
	for _, p := range phases {
		t.Log(p)
	}
	whole := phases[3]
	for status, n := range whole.statuses {
		if status != 200 && status != 422 && !(outcome{status: status}).failed() {
			t.Errorf("%d answers with status %d: a request the load generator draws should get 200 or 422 (unroutable)", n, status)
		}
	}
	// Requests in flight on the killed replica fail (nginx does not resend a
	// POST a replica may have charged): at most one per client.
	if whole.failed > loadClients {
		t.Errorf("%d requests failed, more than the %d clients could have had in flight on the killed replica", whole.failed, loadClients)
	}
	if phases[1].ok == 0 || phases[1].okPerSecond < phases[0].okPerSecond/3 {
		t.Errorf("with one replica dead, %.1f 200s/s against %.1f before: the balancer did not route around it",
			phases[1].okPerSecond, phases[0].okPerSecond)
	}
	if got := victim.served(); got == 0 {
		t.Errorf("the restarted replica served nothing: the balancer did not route back to it (%d before the kill)", servedBefore)
	}
	for _, r := range c.replicas {
		r.stop(t)
	}
	c.checkBooks(t, outcomes, whole.failed)
}

// checkBooks holds the ledger to what the clients saw: every 200 charged
// once with the credits it reported, nothing charged beyond the requests
// that failed in flight, the books balanced.
func (c *cluster) checkBooks(t *testing.T, outcomes []outcome, failed int) {
	t.Helper()
	told := map[string]int64{}
	var received, credits int64
	for _, o := range outcomes {
		if o.status != 200 {
			continue
		}
		if _, dup := told[o.requestID]; dup {
			t.Errorf("request id %s answered twice", o.requestID)
		}
		told[o.requestID] = o.credits
		received++
		credits += o.credits
	}
	out, stderr, err := run(mapdBin, "ledger", "verify", "--ledger", c.ledgerURL)
	if err != nil {
		t.Errorf("mapd ledger verify: %v\n%s%s", err, out, stderr)
	}
	ids := make([]string, 0, len(told))
	for id := range told {
		ids = append(ids, id)
	}
	missing := 0
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 2000)]
		ids = ids[len(batch):]
		out, _, _ := run(append([]string{mapdBin, "usage", "show", "--ledger", c.ledgerURL}, batch...)...)
		dec := json.NewDecoder(bytes.NewReader(out))
		found := 0
		for {
			var u ledger.Usage
			if err := dec.Decode(&u); err != nil {
				break
			}
			found++
			if told[u.RequestID] != u.Credits {
				t.Errorf("request %s: charged %d credits, the client was told %d", u.RequestID, u.Credits, told[u.RequestID])
			}
		}
		missing += len(batch) - found
	}
	if missing > 0 {
		t.Errorf("%d of %d 200s have no usage record: charges lost", missing, len(told))
	}
	today := time.Now().UTC().Format(time.DateOnly)
	var report ledger.UsageReport
	out = mustRun(t, mapdBin, "usage", "export", "--account", c.accountID, "--from", "2020-01-01", "--to", today, "--ledger", c.ledgerURL)
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatal(err)
	}
	extra := report.Totals.Requests - received
	t.Logf("ledger: %d charges (%d credits); clients received %d 200s (%d credits); %d charged in flight and not received, of %d failed",
		report.Totals.Requests, report.Totals.Credits, received, credits, extra, failed)
	if extra < 0 || extra > int64(failed) {
		t.Errorf("the ledger holds %d charges for %d 200s received and %d failed requests", report.Totals.Requests, received, failed)
	}
	if report.Balance.Closing != c.credits-report.Totals.Credits {
		t.Errorf("closing balance %d, want %d - %d", report.Balance.Closing, c.credits, report.Totals.Credits)
	}
}

func run(args ...string) (stdout, stderr []byte, err error) {
	var o, e bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

// runSoak kills and restarts the replicas in turn every 10 s for d, under
// load, then checks the books as TestScaleOut does.
func runSoak(t *testing.T, d time.Duration) {
	c := startCluster(t)
	load := startLoad(c.nginx, c.key)
	cycle := 0
	for time.Since(load.start) < d {
		time.Sleep(7 * time.Second)
		r := c.replicas[cycle%len(c.replicas)]
		r.kill9()
		time.Sleep(3 * time.Second)
		r.restart(t, cycle%len(c.replicas)+1)
		cycle++
	}
	outcomes := load.stop()
	whole := summarise("soak", outcomes, 0, time.Since(load.start))
	t.Logf("%s; %d kill -9", whole, cycle)
	if whole.failed > cycle*loadClients {
		t.Errorf("%d requests failed over %d kills, more than the %d clients in flight each time", whole.failed, cycle, loadClients)
	}
	for _, r := range c.replicas {
		r.stop(t)
	}
	c.checkBooks(t, outcomes, whole.failed)
}
