package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/serving"
)

// Issue 25, item 1: a server's memory must not grow with its clients.
// memoryClients connections at once, each sending memoryRequests requests
// (long directions with an alternative, many waypoints, the largest
// matrix, isochrones; car, bicycle and pedestrian), may raise mapd's peak
// anonymous resident memory (its heap, stacks and runtime: what grew with
// the clients before) at most memoryBound above the freshly started
// server's, metered and unmetered. The file-backed rest of the resident set
// is the release's mapping, paged in as searches touch it: page cache,
// shared and reclaimable, at most the release's size however many clients
// there are; the test logs it.
const (
	memoryClients  = 256
	memoryRequests = 4
	memoryBound    = 256 << 20
	// memoryNodes is the synthetic country CI builds (about 30 s of mapc):
	// big enough that searches' scratch sized to the graph, one per
	// request in flight, broke the bound (see docs/benchmarks-history.md, "Memory under
	// concurrency"). MAPS_MEMORY_NODES picks another size, and
	// MAPS_SYNTH_RELEASE an existing release (the 3M-node country).
	memoryNodes = 300_000
)

func TestMemoryBoundedUnderConcurrency(t *testing.T) {
	if testing.Short() {
		t.Skip("256 clients on a synthetic country: run without -short (the race detector multiplies memory anyway)")
	}
	nodes := memoryNodes
	if v := os.Getenv("MAPS_MEMORY_NODES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("MAPS_MEMORY_NODES=%q: %v", v, err)
		}
		nodes = n
	}
	dir := compiletest.SynthRelease(t, t.TempDir(), nodes)
	bodies := memoryBodies(t, dir)
	unmetered := filepath.Join(t.TempDir(), "mapd-unmetered")
	if out, err := exec.Command("go", "build", "-tags", "benchunmetered", "-o", unmetered, ".").CombinedOutput(); err != nil {
		t.Fatalf("build the benchmark mapd: %v\n%s", err, out)
	}
	t.Run("unmetered", func(t *testing.T) {
		s := startServe(t, unmetered, "", "--unmetered", "--data", dir)
		loadAndMeasure(t, s, bodies)
	})
	t.Run("metered", func(t *testing.T) {
		ledger := filepath.Join(t.TempDir(), "ledger.db")
		key := createAccount(t, ledger, 100_000_000, "--daily", "0").Secret
		s := startServe(t, mapdBin, key, "--ledger", ledger, "--rate-limit", "1000000", "--data", dir)
		loadAndMeasure(t, s, bodies)
	})
}

// memoryRequest is one request of the load.
type memoryRequest struct {
	path, body string
}

// memoryBodies draws the load's requests: points are the starts of random
// segments of each profile's largest component, anywhere in the country,
// so routes are long and tables span the whole country.
func memoryBodies(t *testing.T, dir string) [][]memoryRequest {
	rel, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rel.Close()
	rng := rand.New(rand.NewPCG(25, 1))
	points := func(profile string, n int) string {
		g := rel.Routers[profile].Graph()
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < n; {
			s := uint32(rng.IntN(g.Net.NumSegments()))
			if g.Big[s] != 1 {
				continue
			}
			begin, _ := g.Net.Points(s)
			lon, lat := g.Net.Point(begin)
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "[%.6f,%.6f]", lon, lat)
			i++
		}
		b.WriteByte(']')
		return b.String()
	}
	origin := func(profile string) string { p := points(profile, 1); return p[1 : len(p)-1] }
	all := make([][]memoryRequest, memoryClients)
	for c := range all {
		for k := range memoryRequests {
			var r memoryRequest
			switch (c + k) % 8 {
			case 0, 1, 2:
				r = memoryRequest{"/v1/directions", `{"profile":"car","coordinates":` + points("car", 2) + `}`}
			case 3:
				r = memoryRequest{"/v1/directions", `{"profile":"car","alternatives":0,"include_steps":true,"coordinates":` + points("car", 10) + `}`}
			case 4:
				r = memoryRequest{"/v1/matrix", `{"profile":"car","sources":` + points("car", 100) + `,"targets":` + points("car", 100) + `}`}
			case 5:
				r = memoryRequest{"/v1/directions", `{"profile":"bicycle","coordinates":` + points("bicycle", 2) + `}`}
			case 6:
				r = memoryRequest{"/v1/matrix", `{"profile":"pedestrian","sources":` + points("pedestrian", 40) + `,"targets":` + points("pedestrian", 40) + `}`}
			case 7:
				r = memoryRequest{"/v1/isochrone", `{"profile":"car","origin":` + origin("car") + `,"contours":[{"time_minutes":15},{"time_minutes":30}]}`}
			}
			all[c] = append(all[c], r)
		}
	}
	return all
}

// loadAndMeasure sends every client's requests at once, each client on its
// own connection, and checks that mapd's peak resident memory (VmHWM) stays
// within memoryBound of what it held when it started serving.
func loadAndMeasure(t *testing.T, s *server, bodies [][]memoryRequest) {
	pid := s.cmd.Process.Pid
	fresh := procStatus(t, pid)
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: memoryClients, MaxConnsPerHost: memoryClients}}
	defer client.CloseIdleConnections()
	var mu sync.Mutex
	statuses := map[int]int{}
	var failures []string
	var peakAnon int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // RssAnon has no high-water mark: sample it
		defer close(sampled)
		for {
			if a := procStatus(t, pid)["RssAnon"]; a > peakAnon {
				peakAnon = a
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	for _, reqs := range bodies {
		wg.Go(func() {
			for _, r := range reqs {
				status, detail := send(client, s, r)
				// 503 is the server shedding load it cannot compute in time
				// (free, with Retry-After): a client tries again.
				for try := 0; status == http.StatusServiceUnavailable && try < 20; try++ {
					time.Sleep(time.Second)
					status, detail = send(client, s, r)
				}
				mu.Lock()
				statuses[status]++
				if status != http.StatusOK && len(failures) < 5 {
					failures = append(failures, fmt.Sprintf("%s %s: %d %s", r.path, r.body[:min(len(r.body), 80)], status, detail))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	end := procStatus(t, pid)
	growth := max(peakAnon, end["RssAnon"]) - fresh["RssAnon"]
	t.Logf("%d clients × %d requests in %v, statuses %v; resident: fresh %d MiB (anonymous %d, file %d), peak %d MiB, end %d MiB (anonymous %d, file %d); anonymous peak %d MiB, %d MiB above fresh",
		len(bodies), len(bodies[0]), time.Since(start).Round(time.Millisecond), statuses, fresh["VmRSS"]>>20, fresh["RssAnon"]>>20, fresh["RssFile"]>>20,
		end["VmHWM"]>>20, end["VmRSS"]>>20, end["RssAnon"]>>20, end["RssFile"]>>20, peakAnon>>20, growth>>20)
	if len(failures) > 0 {
		t.Errorf("requests failed: %v\n%s", statuses, strings.Join(failures, "\n"))
	}
	if growth > memoryBound {
		t.Errorf("peak anonymous resident memory %d MiB above the fresh server's, bound %d MiB", growth>>20, memoryBound>>20)
	}
}

// send posts one request and reads the whole answer.
func send(client *http.Client, s *server, r memoryRequest) (int, string) {
	req, err := http.NewRequest(http.MethodPost, s.base+r.path, strings.NewReader(r.body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	if s.key != "" {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, string(raw[:min(len(raw), 200)])
	}
	return resp.StatusCode, ""
}

// procStatus reads the memory lines of /proc/PID/status, in bytes.
func procStatus(t *testing.T, pid int) map[string]int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Errorf("read mapd's status: %v", err)
		return nil
	}
	out := map[string]int64{}
	for _, line := range strings.Split(string(raw), "\n") {
		key, rest, ok := strings.Cut(line, ":")
		if f := strings.Fields(rest); ok && len(f) == 2 && f[1] == "kB" {
			if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				out[key] = v << 10
			}
		}
	}
	return out
}
