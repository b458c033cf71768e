package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/roadops"
)

// The Envalira tunnel (way 6176755, CG-2a) and a car trip through it.
const (
	envaliraWay     = "6176755"
	tunnelTrip      = `{"coordinates":[[1.686162,42.552528],[1.733594,42.543642]],"profile":"car","alternatives":0}`
	tunnelMatrix    = `{"sources":[[1.686162,42.552528]],"targets":[[1.733594,42.543642]],"profile":"car"}`
	tunnelIsochrone = `{"origin":[1.686162,42.552528],"profile":"car","contours":[{"time_minutes":10}]}`
)

// tripState is what one answer of the trip says.
type tripState struct {
	duration float64
	applied  bool
}

func trip(t *testing.T, p *mapdProc, key string) tripState {
	t.Helper()
	r := p.call(t, "/v1/directions", bearer(key), tunnelTrip)
	if r.status != 200 {
		t.Fatalf("directions: %d %s", r.status, r.raw)
	}
	rt := r.body["routes"].([]any)[0].(map[string]any)
	return tripState{duration: rt["summary"].(map[string]any)["duration_s"].(float64), applied: rt["operations_applied"].(bool)}
}

// awaitTrip asks the trip every 20 ms until want holds of its answer, and
// returns how long that took; it fails the test after 10 s.
func awaitTrip(t *testing.T, p *mapdProc, key string, since time.Time, want func(tripState) bool) (tripState, time.Duration) {
	t.Helper()
	for time.Since(since) < 10*time.Second {
		if s := trip(t, p, key); want(s) {
			return s, time.Since(since)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the trip's answer did not change within 10 s: %+v", trip(t, p, key))
	return tripState{}, 0
}

// TestEnvaliraClosedWhileServing is the operator's morning: mapd serves
// Andorra under load; the Envalira tunnel is closed for an accident with
// the operations commands (separate processes); once reviewed, the next
// answers avoid it and say operations_applied (directions, matrix,
// isochrone); withdrawn, they come back. The time from the review
// command's exit to the first changed answer is logged.
func TestEnvaliraClosedWhileServing(t *testing.T) {
	dsn := ledgerFile(t)
	acc := createAccount(t, dsn, 10_000_000, "--daily", "0")
	s := serveMetered(t, dsn, "--rate-limit", "1000000")
	load := startLoad(t, s, acc.Secret, 4)
	before := trip(t, s, acc.Secret)
	if before.applied {
		t.Fatalf("operations_applied before any operation: %+v", before)
	}
	var op roadops.Operation
	if err := json.Unmarshal(mustCLI(t, "operations", "add", "--kind", "closure", "--way", envaliraWay,
		"--reason", "accident in the tunnel", "--ledger", dsn), &op); err != nil {
		t.Fatal(err)
	}
	if draft := trip(t, s, acc.Secret); draft != before {
		t.Errorf("a draft changed the answer: %+v, before %+v", draft, before)
	}
	mustCLI(t, "operations", "review", op.ID, "--ledger", dsn)
	closed, took := awaitTrip(t, s, acc.Secret, time.Now(), func(st tripState) bool { return st.applied })
	t.Logf("review -> first answer avoiding the tunnel: %v; %.0f s through it, %.0f s around", took, before.duration, closed.duration)
	if closed.duration <= before.duration {
		t.Errorf("closed tunnel: %.1f s, not longer than %.1f s", closed.duration, before.duration)
	}
	for path, body := range map[string]string{"/v1/matrix": tunnelMatrix, "/v1/isochrone": tunnelIsochrone} {
		r := s.call(t, path, bearer(acc.Secret), body)
		if r.status != 200 || r.body["operations_applied"] != true {
			t.Errorf("%s with the tunnel closed: %d, operations_applied %v", path, r.status, r.body["operations_applied"])
		}
	}
	// Then each profile's hierarchy is customized under the closure in the
	// background (docs/road-operations.md): logged, and the answers stay.
	for start := time.Now(); !strings.Contains(s.logText(), `"msg":"road operations: hierarchy customized","profile":"car"`); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 60*time.Second {
			t.Fatalf("no log that the car hierarchy was customized within 60 s:\n%s", s.logText())
		}
	}
	if custom := trip(t, s, acc.Secret); custom != closed {
		t.Errorf("on the customized hierarchy: %+v, repaired %+v", custom, closed)
	}
	checkResolved(t, dsn, op.ID)
	// A closure of a way this release lacks is reported by the metric
	// operators alert on, and not applied.
	var gone roadops.Operation
	if err := json.Unmarshal(mustCLI(t, "operations", "add", "--kind", "closure", "--way", "1",
		"--reason", "a way no release holds", "--ledger", dsn), &gone); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, "operations", "review", gone.ID, "--ledger", dsn)
	awaitMetric(t, s, map[string]float64{`mapd_road_operations{state="applied"}`: 1, `mapd_road_operations{state="unresolved"}`: 1})
	if still := trip(t, s, acc.Secret); still != closed {
		t.Errorf("an unresolved closure changed the answer: %+v, before %+v", still, closed)
	}
	mustCLI(t, "operations", "withdraw", gone.ID, "--ledger", dsn)
	mustCLI(t, "operations", "withdraw", op.ID, "--ledger", dsn)
	after, took := awaitTrip(t, s, acc.Secret, time.Now(), func(st tripState) bool { return !st.applied })
	t.Logf("withdraw -> first answer through the tunnel again: %v", took)
	if after != before {
		t.Errorf("after the withdrawal: %+v, before the closure %+v", after, before)
	}
	awaitMetric(t, s, map[string]float64{`mapd_road_operations{state="applied"}`: 0, `mapd_road_operations{state="unresolved"}`: 0})
	if served := load.stop(t); len(served) == 0 {
		t.Error("the load got no answer")
	}
}

// awaitMetric scrapes p's metrics every 20 ms until each of want has its
// value; it fails the test after 10 s.
func awaitMetric(t *testing.T, p *mapdProc, want map[string]float64) {
	t.Helper()
	var got map[string]float64
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		got = scrape(t, p.metricsBase)
		if func() bool {
			for k, v := range want {
				if got[k] != v {
					return false
				}
			}
			return true
		}() {
			return
		}
	}
	for k, v := range want {
		t.Errorf("metric %s: %v after 10 s, want %v", k, got[k], v)
	}
}

// TestOperationsTwoReplicas: two mapd on one PostgreSQL ledger, as two
// replicas behind a balancer: a closure reviewed once changes both
// replicas' answers, each within a second or so (logged).
func TestOperationsTwoReplicas(t *testing.T) {
	dsn := newAdminPostgresDSN(t)
	mustCLI(t, "ledger", "init", "--ledger", dsn)
	acc := createAccount(t, dsn, 1_000_000, "--daily", "0")
	a := serveMetered(t, dsn, "--rate-limit", "1000000")
	b := serveMetered(t, dsn, "--rate-limit", "1000000")
	before := trip(t, a, acc.Secret)
	var op roadops.Operation
	if err := json.Unmarshal(mustCLI(t, "operations", "add", "--kind", "closure", "--way", envaliraWay,
		"--reason", "accident in the tunnel", "--ledger", dsn), &op); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, "operations", "review", op.ID, "--ledger", dsn)
	reviewed := time.Now()
	for i, p := range []*mapdProc{a, b} {
		st, took := awaitTrip(t, p, acc.Secret, reviewed, func(st tripState) bool { return st.applied })
		t.Logf("replica %d: answers with the closure %v after the review (%.0f s, before %.0f s)", i, took, st.duration, before.duration)
	}
	checkResolved(t, dsn, op.ID)
}

// checkResolved fails the test unless `operations list` shows operation id
// active and resolved on the release served (reported by mapd).
func checkResolved(t *testing.T, dsn, id string) {
	t.Helper()
	var listed []listedOp
	if err := json.Unmarshal(mustCLI(t, "operations", "list", "--format", "json", "--ledger", dsn), &listed); err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if l.ID != id {
			continue
		}
		for _, r := range l.Resolutions {
			if r.Resolved && r.Segments > 0 {
				t.Logf("operations list: %s active %v, resolved on %s: %s", id, l.Active, r.DataVersion, r.Detail)
				return
			}
		}
		t.Fatalf("operations list shows %s without a resolution: %+v", id, l)
	}
	t.Fatalf("operations list does not show %s", id)
}
