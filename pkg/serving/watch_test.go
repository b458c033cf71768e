package serving_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/serving"
)

// releasesDir makes a directory of releases: test1 and swap2 (links to the
// shared builds) and "bad", a copy of swap2 whose manifest lies about a
// checksum, with current naming test1.
func releasesDir(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	for _, v := range []string{"test1", "swap2"} {
		if err := os.Symlink(testRelease(t, v), filepath.Join(data, v)); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(data, "bad")
	os.Mkdir(bad, 0o755)
	src := testRelease(t, "swap2")
	m, err := release.ReadManifest(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		if err := os.Symlink(filepath.Join(src, f.Name), filepath.Join(bad, f.Name)); err != nil {
			t.Fatal(err)
		}
	}
	m.Files[0].SHA256 = strings.Repeat("0", 64)
	b, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(bad, release.ManifestFile), b, 0o644)
	if err := release.Use(data, "test1"); err != nil {
		t.Fatal(err)
	}
	return data
}

// servedVersion returns the data version the holder serves.
func servedVersion(h *serving.Holder) string {
	r, done := h.Acquire()
	defer done()
	return r.Manifest.DataVersion
}

func TestWatcherReload(t *testing.T) {
	data := releasesDir(t)
	dir, err := release.Resolve(data)
	if err != nil {
		t.Fatal(err)
	}
	first := mustOpen(t, dir)
	h := serving.NewHolder(first)
	var events []serving.SwapEvent
	w, err := serving.NewWatcher(serving.WatchConfig{Data: data, Holder: h, OnSwap: func(ev serving.SwapEvent) { events = append(events, ev) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, tried := w.Reload(ctx, true); tried {
		t.Error("reloaded the release already served")
	}

	release.Use(data, "bad")
	ev, tried := w.Reload(ctx, false)
	if !tried || ev.Outcome != serving.SwapRefused || ev.Err == nil || !strings.Contains(ev.Err.Error(), "sha256") || servedVersion(h) != "test1" {
		t.Fatalf("swap to a corrupt release: tried %v, %+v, serving %s", tried, ev, servedVersion(h))
	}
	if _, tried := w.Reload(ctx, false); tried {
		t.Error("polling retried a refused release")
	}
	if ev, tried := w.Reload(ctx, true); !tried || ev.Outcome != serving.SwapRefused {
		t.Errorf("an explicit reload did not retry: %v %+v", tried, ev)
	}

	// A pointer that names nothing is refused once, not at every poll.
	os.Remove(filepath.Join(data, release.CurrentFile))
	if ev, tried := w.Reload(ctx, false); !tried || ev.Outcome != serving.SwapRefused || servedVersion(h) != "test1" {
		t.Errorf("missing pointer: %v %+v", tried, ev)
	}
	if _, tried := w.Reload(ctx, false); tried {
		t.Error("polling retried a missing pointer")
	}

	release.Use(data, "swap2")
	ev, tried = w.Reload(ctx, false)
	if !tried || ev.Outcome != serving.SwapOK || ev.From != "test1" || ev.To != "swap2" || servedVersion(h) != "swap2" {
		t.Fatalf("swap to a good release: %v %+v, serving %s", tried, ev, servedVersion(h))
	}
	select {
	case <-first.Unmapped():
	case <-time.After(5 * time.Second):
		t.Error("the old release was not unmapped")
	}
	if len(events) != 4 {
		t.Errorf("OnSwap saw %d attempts, want 4", len(events))
	}
}

// Run notices a moved pointer by polling.
func TestWatcherPolls(t *testing.T) {
	data := releasesDir(t)
	dir, _ := release.Resolve(data)
	h := serving.NewHolder(mustOpen(t, dir))
	var mu sync.Mutex
	var swapped []string
	w, _ := serving.NewWatcher(serving.WatchConfig{Data: data, Holder: h, Interval: 20 * time.Millisecond,
		OnSwap: func(ev serving.SwapEvent) { mu.Lock(); swapped = append(swapped, ev.To); mu.Unlock() }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx, nil)
	release.Use(data, "swap2")
	// OnSwap runs just after the holder swaps: wait for both.
	seen := func() int { mu.Lock(); defer mu.Unlock(); return len(swapped) }
	deadline := time.Now().Add(10 * time.Second)
	for servedVersion(h) != "swap2" || seen() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the watcher did not swap within 10 s of the pointer moving (serving %s)", servedVersion(h))
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // room for a wrong second swap to show
	mu.Lock()
	defer mu.Unlock()
	if len(swapped) != 1 || swapped[0] != "swap2" {
		t.Errorf("swaps %v", swapped)
	}
}
