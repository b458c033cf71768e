package main

import (
	"encoding/json"
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

	offered := 512
	if testing.Short() {
		offered = 256 // the race pass reads each 290 KB answer slowly; still 100 times the slots
	}
	var mu sync.Mutex
	counts, cheap := statusCounts{}, statusCounts{}
	var wg sync.WaitGroup
	for i := range offered {
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
	t.Logf("%d directions: %s; elevations: %s; charged %d credits; mapd's peak resident memory %d MiB", offered, counts, cheap, a.Usage.AllTime, peak)
	if counts["503"] == 0 || counts["200"] == 0 || counts["200"]+counts["503"] != offered {
		t.Errorf("want 200s and 503s only, some of each: %s", counts)
	}
	if cheap["200"] != offered/32 {
		t.Errorf("elevations: %s, want %d × 200 (never queued, never shed)", cheap, offered/32)
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
// nothing; no 200 was ready later than the limit allows (mapd's own
// latency_ms: the client's view adds reading 290 KB on busy cores, seconds
// under the race detector).
func TestComputeTimeoutEndToEnd(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1_000_000)
	const limit = 150 * time.Millisecond
	p := serveMetered(t, dsn, "--rate-limit", "1000000", "--compute-timeout", limit.String(), "--max-queued", "1000", "--queue-timeout", "1m")
	heavy := strings.Replace(directionsBody(50), "{", `{"include_steps":true,`, 1)
	var mu sync.Mutex
	counts := statusCounts{}
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			r, err := p.send(t, "/v1/directions", bearer(acct.Secret), heavy)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				counts["err"]++
			case r.status == 200:
				counts["200"]++
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
	slowest := slowest200(t, p.logText(), "directions")
	a := showAccount(t, dsn, acct.ID)
	t.Logf("64 directions with a %v limit: %s; the slowest 200 was ready after %v; charged %d credits", limit, counts, slowest, a.Usage.AllTime)
	if counts["503"] == 0 || counts["200"]+counts["503"] != 64 {
		t.Errorf("want 200s and 503s: %s", counts)
	}
	if a.Usage.AllTime != 5*int64(counts["200"]) {
		t.Errorf("charged %d credits for %d 200s", a.Usage.AllTime, counts["200"])
	}
	// The limit is checked before the charge; the slack is for the charge
	// (a journal write) on two busy cores.
	if slowest > limit+500*time.Millisecond {
		t.Errorf("a 200 was ready after %v, past the %v limit", slowest, limit)
	}
}

// slowest200 is the largest latency_ms of the operation's 200s in mapd's log.
func slowest200(t *testing.T, log, operation string) time.Duration {
	t.Helper()
	var slowest time.Duration
	for line := range strings.Lines(log) {
		var l struct {
			Msg, Operation string
			Status         int
			LatencyMS      float64 `json:"latency_ms"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "request" && l.Operation == operation && l.Status == 200 {
			slowest = max(slowest, time.Duration(l.LatencyMS*float64(time.Millisecond)))
		}
	}
	return slowest
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
