package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLoadShedding reproduces issue 19, item 6: 512 concurrent 50-waypoint
// directions with steps, and one-point elevations among them. Before, mapd
// took 2.0 GiB resident and served everything late. Now the requests beyond
// the admission limit and its queue are answered 503 with Retry-After at
// once and cost nothing, elevations are never queued, and mapd's peak
// resident memory stays under 512 MiB. (Latencies are measured by
// scripts/overload, not asserted here.)
func TestLoadShedding(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1_000_000)
	p := serveMetered(t, dsn, "--rate-limit", "1000000")
	heavy := strings.Replace(directionsBody(50), "{", `{"include_steps":true,`, 1) // 5 credits

	var mu sync.Mutex
	counts, cheap := statusCounts{}, statusCounts{}
	var wg sync.WaitGroup
	for i := range 512 {
		wg.Go(func() {
			r, err := p.send(t, "/v1/directions", bearer(acct.Secret), heavy)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				counts["err"]++
				return
			}
			counts[fmt.Sprint(r.status)]++
			if r.status == 503 && (r.header.Get("Retry-After") != "1" || !strings.Contains(r.raw, "costs nothing")) {
				t.Errorf("a shed request: Retry-After %q, %s", r.header.Get("Retry-After"), r.raw)
			}
		})
		if i%32 == 0 {
			wg.Go(func() {
				r, err := p.send(t, "/v1/elevation", bearer(acct.Secret), elevationBody(1))
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					cheap["err"]++
				} else {
					cheap[fmt.Sprint(r.status)]++
				}
			})
		}
	}
	wg.Wait()
	peak := peakRSSMiB(t, p)
	p.stop(t)
	a := showAccount(t, dsn, acct.ID)
	t.Logf("512 directions: %s; elevations: %s; charged %d credits; mapd's peak resident memory %d MiB", counts, cheap, a.Usage.AllTime, peak)
	if counts["503"] == 0 || counts["200"] == 0 || counts["200"]+counts["503"] != 512 {
		t.Errorf("want 200s and 503s only, some of each: %s", counts)
	}
	if cheap["200"] != 16 {
		t.Errorf("elevations: %s, want 16 × 200 (never queued, never shed)", cheap)
	}
	if want := 5*int64(counts["200"]) + int64(cheap["200"]); a.Usage.AllTime != want {
		t.Errorf("charged %d credits, want %d: the 200s only", a.Usage.AllTime, want)
	}
	if peak >= 512 {
		t.Errorf("mapd's peak resident memory %d MiB, want under 512", peak)
	}
}

// TestComputeTimeoutEndToEnd: with --compute-timeout 150ms and a queue that
// holds everything, requests that waited past the limit answer 503 and cost
// nothing; no 200 comes back later than the limit allows.
func TestComputeTimeoutEndToEnd(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1_000_000)
	const limit = 150 * time.Millisecond
	p := serveMetered(t, dsn, "--rate-limit", "1000000", "--compute-timeout", limit.String(), "--max-queued", "1000", "--queue-timeout", "1m")
	heavy := strings.Replace(directionsBody(50), "{", `{"include_steps":true,`, 1)
	var mu sync.Mutex
	counts := statusCounts{}
	var slowest time.Duration
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			start := time.Now()
			r, err := p.send(t, "/v1/directions", bearer(acct.Secret), heavy)
			took := time.Since(start)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				counts["err"]++
			case r.status == 200:
				counts["200"]++
				slowest = max(slowest, took)
			default:
				counts[fmt.Sprint(r.status)]++
				// Past the limit in the queue, while routing (directions
				// stops between legs), or once done.
				if r.status == 503 && !strings.Contains(r.raw, "none was free within") &&
					!strings.Contains(r.raw, "routing did not finish in time") &&
					!strings.Contains(r.raw, "did not finish within the server's limit of 150ms") {
					t.Errorf("503: %s", r.raw)
				}
			}
		})
	}
	wg.Wait()
	p.stop(t)
	a := showAccount(t, dsn, acct.ID)
	t.Logf("64 directions with a %v limit: %s; the slowest 200 took %v; charged %d credits", limit, counts, slowest, a.Usage.AllTime)
	if counts["503"] == 0 || counts["200"]+counts["503"] != 64 {
		t.Errorf("want 200s and 503s: %s", counts)
	}
	if a.Usage.AllTime != 5*int64(counts["200"]) {
		t.Errorf("charged %d credits for %d 200s", a.Usage.AllTime, counts["200"])
	}
	// The server stops at its limit; the slack is for the client's own
	// scheduling on two busy cores, and the one leg in progress.
	if slowest > limit+time.Second {
		t.Errorf("a 200 came back after %v, past the %v limit", slowest, limit)
	}
}

// peakRSSMiB reads mapd's peak resident set size (VmHWM).
func peakRSSMiB(t *testing.T, p *mapdProc) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return kb >> 10
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
}
