package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/release"
)

var (
	releasesMu sync.Mutex
	releases   = map[string]string{}
)

// testRelease returns a release of Andorra with data version v, compiled once
// per test binary by the mapc binary (an in-process build under -race takes
// many times as long) into the directory TestMain made for mapd, which it
// removes at the end. Tests must not modify it.
func testRelease(t *testing.T, v string) string {
	t.Helper()
	releasesMu.Lock()
	defer releasesMu.Unlock()
	if dir, ok := releases[v]; ok {
		return dir
	}
	dir := compiletest.AndorraRelease(t, filepath.Join(filepath.Dir(mapdBin), "releases"), v)
	releases[v] = dir
	return dir
}

// linkReleases makes data a directory of releases holding the shared test
// releases of the given versions (as symlinks).
func linkReleases(t *testing.T, data string, versions ...string) {
	t.Helper()
	for _, v := range versions {
		if err := os.Symlink(testRelease(t, v), filepath.Join(data, v)); err != nil {
			t.Fatal(err)
		}
	}
}

// pointCurrentFile makes data/current a plain file naming v, the other form
// of the pointer, written beside and renamed over like `mapc release use`.
func pointCurrentFile(t *testing.T, data, v string) {
	t.Helper()
	tmp := filepath.Join(data, ".current.tmp")
	if err := os.WriteFile(tmp, []byte(v+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(data, release.CurrentFile)); err != nil {
		t.Fatal(err)
	}
}

// servedVersion asks /v1/status which release answers.
func servedVersion(base string) (string, error) {
	resp, err := http.Get(base + "/v1/status")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var st struct {
		DataVersion string `json:"data_version"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return "", err
	}
	return st.DataVersion, nil
}

// waitServed waits until /v1/status reports version v.
func waitServed(t *testing.T, base, v string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if got, err := servedVersion(base); err == nil && got == v {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	got, err := servedVersion(base)
	t.Fatalf("still serving %q (%v) %v after the swap to %s", got, err, timeout, v)
}

// answer is one directions request made under load.
type answer struct {
	start, end  time.Time
	status      int
	dataVersion string
	err         error
}

var loadRoutes = []string{
	`{"coordinates":[[1.5218,42.5063],[1.7333,42.5425]]}`,
	`{"coordinates":[[1.5218,42.5063],[1.5970,42.5340]],"profile":"moto"}`,
	`{"coordinates":[[1.5970,42.5340],[1.7333,42.5425]],"geometry_format":"geojson"}`,
}

// loadDirections sends directions requests back to back until stop closes.
func loadDirections(s *watched, worker int, stop <-chan struct{}) []answer {
	client := &http.Client{Timeout: 10 * time.Second}
	var out []answer
	for i := 0; ; i++ {
		select {
		case <-stop:
			return out
		default:
		}
		a := answer{start: time.Now()}
		req, err := http.NewRequest(http.MethodPost, s.base+"/v1/directions", strings.NewReader(loadRoutes[(worker+i)%len(loadRoutes)]))
		if err != nil {
			panic(err) // a constant URL and body
		}
		req.Header.Set("Content-Type", "application/json")
		s.authorize(req)
		resp, err := client.Do(req)
		if err == nil {
			var body struct {
				DataVersion string `json:"data_version"`
			}
			raw, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			err = rerr
			if err == nil {
				err = json.Unmarshal(raw, &body)
			}
			a.status, a.dataVersion = resp.StatusCode, body.DataVersion
		}
		a.end, a.err = time.Now(), err
		out = append(out, a)
	}
}

// swapPhase is one release being served: from the moment its swap was
// triggered until /v1/status first reported it (the swap completed in
// between), and the version it serves.
type swapPhase struct {
	version            string
	triggered, settled time.Time
}

// TestSwapUnderLoad swaps the release three times (pointer moved and found
// by polling; moved and SIGHUP; a file pointer and SIGHUP) while workers
// send directions requests back to back. No request may fail, every answer
// names one of the releases, and every answer comes from the release that
// was current when it was asked.
func TestSwapUnderLoad(t *testing.T) {
	data := t.TempDir()
	linkReleases(t, data, "swap1", "swap2", "swap3")
	if err := release.Use(data, "swap1"); err != nil {
		t.Fatal(err)
	}
	s := launchMapd(t, "--data", data, "--watch-interval", "100ms")

	const workers = 6
	stop := make(chan struct{})
	results := make([][]answer, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { results[w] = loadDirections(s, w, stop) })
	}
	phases := []swapPhase{{version: "swap1", settled: time.Now()}}
	swap := func(v string, move func(), hup bool) {
		time.Sleep(400 * time.Millisecond) // let every worker answer from the current phase
		p := swapPhase{version: v, triggered: time.Now()}
		move()
		if hup {
			s.signal(t, syscall.SIGHUP)
		}
		waitServed(t, s.base, v, 10*time.Second)
		p.settled = time.Now()
		phases = append(phases, p)
	}
	swap("swap2", func() { release.Use(data, "swap2") }, false)
	swap("swap3", func() { release.Use(data, "swap3") }, true)
	swap("swap1", func() { pointCurrentFile(t, data, "swap1") }, true)
	time.Sleep(400 * time.Millisecond)
	close(stop)
	wg.Wait()

	checkAnswers(t, results, phases)
	for _, v := range []string{"swap1", "swap2", "swap3"} {
		s.waitLog(t, 5*time.Second, func(l map[string]any) bool {
			return l["msg"] == "release unmapped" && l["data_version"] == v
		})
	}
	if got := scrape(t, s.metricsBase)[`mapd_release_swaps_total{outcome="ok"}`]; got != 3 {
		t.Errorf("mapd_release_swaps_total{outcome=\"ok\"} = %v, want 3", got)
	}
}

// checkAnswers asserts that no request failed and that each was answered
// by the release of its phase: one asked after a swap settled by the new
// release, one answered before the next swap was triggered by the old one.
func checkAnswers(t *testing.T, results [][]answer, phases []swapPhase) {
	t.Helper()
	total, worst := 0, time.Duration(0)
	for w, answers := range results {
		var seen []string
		for _, a := range answers {
			total++
			worst = max(worst, a.end.Sub(a.start))
			if a.err != nil || a.status != http.StatusOK {
				t.Errorf("worker %d: request at %v failed: status %d, %v", w, a.start.Format(time.StampMicro), a.status, a.err)
				continue
			}
			if len(seen) == 0 || seen[len(seen)-1] != a.dataVersion {
				seen = append(seen, a.dataVersion)
			}
			for i, p := range phases {
				next := time.Now().Add(time.Hour)
				if i+1 < len(phases) {
					next = phases[i+1].triggered
				}
				if a.start.After(p.settled) && a.end.Before(next) && a.dataVersion != p.version {
					t.Errorf("worker %d: answered by %s during phase %d (%s)", w, a.dataVersion, i, p.version)
				}
			}
		}
		want := []string{"swap1", "swap2", "swap3", "swap1"}
		if !slices.Equal(seen, want) {
			t.Errorf("worker %d saw releases %v, want %v", w, seen, want)
		}
	}
	t.Logf("%d directions requests across 3 swaps, none failed; slowest %v", total, worst)
	for i, p := range phases[1:] {
		t.Logf("swap %d to %s: %v from trigger to serving", i+1, p.version, p.settled.Sub(p.triggered).Round(time.Millisecond))
	}
	if total < 100 {
		t.Errorf("only %d requests: the load did not overlap the swaps", total)
	}
}

// scrape reads the metrics endpoint into "name{labels}" → value.
func scrape(t *testing.T, base string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("metrics: status %d, %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(raw), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		var v float64
		if _, err := fmt.Sscan(line[i+1:], &v); err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}
