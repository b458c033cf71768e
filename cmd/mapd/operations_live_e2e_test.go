package main

// End-to-end tests of the operations commands as separate processes: while
// mapd serves the embedded ledger under load, and across watchers of a
// shared PostgreSQL database (as replicas). Each measures the time from a
// `mapd operations review` process exiting to a watcher holding the
// change, the 1-second target, and logs it; they assert only a
// generous bound, the machine being shared.

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/roadops"
)

// opsWatcher is a roadops.Watch of its own Store, standing in for a
// serving replica: it records when each operation was first seen reviewed
// and withdrawn.
type opsWatcher struct {
	mu   sync.Mutex
	seen map[string]time.Time // id + "/" + state -> when first delivered
	wake chan struct{}
}

func startOpsWatcher(t *testing.T, dsn string) *opsWatcher {
	t.Helper()
	s, err := roadops.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	w := &opsWatcher{seen: map[string]time.Time{}, wake: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		roadops.WatchWith(ctx, s, roadops.WatchOptions{Logger: slog.New(slog.DiscardHandler)}, func(ops []roadops.Operation) {
			now := time.Now()
			w.mu.Lock()
			for _, op := range ops {
				if key := op.ID + "/" + string(op.State); w.seen[key].IsZero() {
					w.seen[key] = now
				}
			}
			w.mu.Unlock()
			select {
			case w.wake <- struct{}{}:
			default:
			}
		})
	}()
	t.Cleanup(func() { cancel(); <-done; s.Close() })
	return w
}

// await returns when the watcher first saw id in state, failing the test
// after a generous timeout.
func (w *opsWatcher) await(t *testing.T, id string, state roadops.Review) time.Time {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		w.mu.Lock()
		at := w.seen[id+"/"+string(state)]
		w.mu.Unlock()
		if !at.IsZero() {
			return at
		}
		select {
		case <-w.wake:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no watcher saw %s %s within 15 s", id, state)
		}
	}
}

// publishAndMeasure adds, reviews and withdraws n closures with the mapd
// binary and returns, per watcher, the latencies from each review's and
// withdraw's process exit to the watcher holding it.
func publishAndMeasure(t *testing.T, dsn string, n int, watchers []*opsWatcher) []time.Duration {
	t.Helper()
	var lat []time.Duration
	for range n {
		var op roadops.Operation
		if err := json.Unmarshal(mustCLI(t, "operations", "add", "--kind", "closure", "--way", "6176755",
			"--reason", "Envalira tunnel: accident", "--by", "e2e", "--ledger", dsn), &op); err != nil {
			t.Fatal(err)
		}
		for _, step := range []struct {
			verb  string
			state roadops.Review
		}{{"review", roadops.ReviewReviewed}, {"withdraw", roadops.ReviewWithdrawn}} {
			mustCLI(t, "operations", step.verb, op.ID, "--by", "e2e", "--ledger", dsn)
			returned := time.Now()
			for _, w := range watchers {
				lat = append(lat, max(0, w.await(t, op.ID, step.state).Sub(returned)))
			}
		}
	}
	return lat
}

func logLatencies(t *testing.T, what string, lat []time.Duration) {
	t.Helper()
	slices.Sort(lat)
	t.Logf("%s: %d changes, command exit -> watcher: median %v, max %v (polling every %v)",
		what, len(lat), lat[len(lat)/2], lat[len(lat)-1], roadops.DefaultWatchEvery)
}

// TestOperationsWhileServing: with mapd serving the embedded ledger under
// load (it holds the ledger's lock), the operations commands work as
// separate processes, a watcher of the file sees every review and
// withdrawal, and the load is served throughout.
func TestOperationsWhileServing(t *testing.T) {
	dsn := ledgerFile(t)
	busy := createAccount(t, dsn, 10_000_000, "--daily", "0")
	s := serveMetered(t, dsn, "--rate-limit", "1000000")
	load := startLoad(t, s, busy.Secret, 4)
	w := startOpsWatcher(t, dsn)
	lat := publishAndMeasure(t, dsn, 10, []*opsWatcher{w})
	served := load.stop(t)
	logLatencies(t, "embedded, mapd serving under load", lat)
	if len(served) == 0 {
		t.Error("the load got no answer")
	}
	var listed []listedOp
	if err := json.Unmarshal(mustCLI(t, "operations", "list", "--format", "json", "--ledger", dsn), &listed); err != nil || len(listed) != 10 {
		t.Errorf("operations list while serving: %d operations (%v), want 10", len(listed), err)
	}
}

// TestOperationsReplicasPostgres: two watchers on one PostgreSQL database,
// as two replicas, both see every change the commands make.
func TestOperationsReplicasPostgres(t *testing.T) {
	dsn := newAdminPostgresDSN(t)
	mustCLI(t, "ledger", "init", "--ledger", dsn)
	watchers := []*opsWatcher{startOpsWatcher(t, dsn), startOpsWatcher(t, dsn)}
	logLatencies(t, "PostgreSQL, two replicas", publishAndMeasure(t, dsn, 10, watchers))
}
