package search

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPoolBound: however many goroutines ask at once, no more than n
// values are ever made or held, every caller is served, and a caller whose
// context ends while waiting gets its error.
func TestPoolBound(t *testing.T) {
	const n, callers = 3, 64
	var made, held, maxHeld atomic.Int32
	p := NewPool(n, func() *int { made.Add(1); return new(int) })
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			v, err := p.Get(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			h := held.Add(1)
			for m := maxHeld.Load(); h > m && !maxHeld.CompareAndSwap(m, h); m = maxHeld.Load() {
			}
			*v++
			time.Sleep(time.Millisecond)
			held.Add(-1)
			p.Put(v)
		})
	}
	wg.Wait()
	if made.Load() > n || maxHeld.Load() > n {
		t.Fatalf("made %d values, held %d at once; the pool allows %d", made.Load(), maxHeld.Load(), n)
	}
	total := 0
	var all []*int
	for range n {
		v, ok := p.TryGet()
		if !ok {
			t.Fatal("TryGet found no free value in an idle pool")
		}
		total += *v
		all = append(all, v)
	}
	if total != callers {
		t.Fatalf("the values served %d calls, want %d", total, callers)
	}
	if _, ok := p.TryGet(); ok {
		t.Fatal("TryGet made a value beyond the pool's size")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := p.Get(ctx); err != context.DeadlineExceeded {
		t.Fatalf("Get on an exhausted pool: %v, want the context's deadline", err)
	}
	for _, v := range all {
		p.Put(v)
	}
}
