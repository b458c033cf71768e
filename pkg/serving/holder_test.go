package serving_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mapsco/maps/pkg/serving"
)

func mustOpen(t *testing.T, dir string) *serving.Release {
	t.Helper()
	r, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// A swapped-out release stays mapped until its last request is done.
func TestHolderUnmapsAfterLastRequest(t *testing.T) {
	dir := testRelease(t, "test1")
	r1, r2 := mustOpen(t, dir), mustOpen(t, dir)
	h := serving.NewHolder(r1)
	got, done1 := h.Acquire()
	_, done2 := h.Acquire()
	if got != r1 {
		t.Fatal("Acquire did not return the release being served")
	}
	if old := h.Swap(r2); old != r1 {
		t.Fatal("Swap did not return the release it replaced")
	}
	if now, done := h.Acquire(); now != r2 {
		t.Error("new requests still get the old release")
	} else {
		done()
	}
	done1()
	if isClosed(r1.Unmapped()) {
		t.Fatal("unmapped while a request still holds it")
	}
	done2()
	if !isClosed(r1.Unmapped()) {
		t.Fatal("not unmapped after its last request")
	}
	if isClosed(r2.Unmapped()) {
		t.Fatal("the current release was unmapped")
	}
}

// Requests racing with swaps never hold an unmapped release, and every
// swapped-out release is eventually unmapped.
func TestHolderConcurrentSwaps(t *testing.T) {
	dir := testRelease(t, "test1")
	h := serving.NewHolder(mustOpen(t, dir))
	var stop atomic.Bool
	var bad atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for !stop.Load() {
				rel, done := h.Acquire()
				if isClosed(rel.Unmapped()) || rel.Routers["car"] == nil {
					bad.Add(1)
				}
				done()
			}
		})
	}
	var old []*serving.Release
	for range 50 {
		old = append(old, h.Swap(mustOpen(t, dir)))
	}
	stop.Store(true)
	wg.Wait()
	if bad.Load() != 0 {
		t.Fatalf("%d requests held an unmapped release", bad.Load())
	}
	for i, r := range old {
		if !isClosed(r.Unmapped()) {
			t.Errorf("swapped-out release %d never unmapped", i)
		}
	}
}
