package ratelimit

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestLocalGCRASteps walks a 2/s key (the example) through its
// burst of 2, a denial and the recovery, on a fake clock.
func TestLocalGCRASteps(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := &fakeClock{now: t0}
	l := NewLocal(Options{Now: clock.Now})
	ms := time.Millisecond
	steps := []struct {
		advance    time.Duration
		allowed    bool
		remaining  int
		reset      time.Duration // since t0
		retryAfter time.Duration
	}{
		{0, true, 1, 500 * ms, 0},
		{0, true, 0, 1000 * ms, 0}, // the second immediate request fits: Limit says 2
		{0, false, 0, 1000 * ms, 500 * ms},
		{250 * ms, false, 0, 1000 * ms, 250 * ms},
		{250 * ms, true, 0, 1500 * ms, 0},  // one refilled after 1/2 s
		{1500 * ms, true, 1, 2500 * ms, 0}, // drained: the whole limit again
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		d, err := l.Allow(context.Background(), "key_a", 2)
		if err != nil {
			t.Fatal(err)
		}
		want := Decision{Allowed: st.allowed, Limit: 2, Remaining: st.remaining, Reset: t0.Add(st.reset), RetryAfter: st.retryAfter}
		if d != want {
			t.Errorf("step %d: %+v, want %+v", i, d, want)
		}
	}
	if d, _ := l.Allow(context.Background(), "key_b", 2); !d.Allowed || d.Remaining != 1 {
		t.Errorf("another key shares the first key's state: %+v", d)
	}
}

// TestHeadersAddUp checks, for random limits and random arrivals on a fake
// clock, what a client may read from the headers: Limit requests at once
// are all accepted from a quiet key; Remaining R means the next R immediate
// requests are accepted and the one after is refused; at Reset (if nothing
// else came) Remaining is back to Limit; and no 1-second window accepts more
// than 2 * Limit.
func TestHeadersAddUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	for trial := range 300 {
		limit := 1 + rng.IntN(200)
		clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
		l := NewLocal(Options{Now: clock.Now})
		for i := range limit {
			if d, _ := l.Allow(ctx, "k", limit); !d.Allowed || d.Remaining != limit-1-i || d.Limit != limit {
				t.Fatalf("trial %d, limit %d: request %d of a burst: %+v", trial, limit, i, d)
			}
		}
		var accepted []time.Time
		for range 50 {
			clock.Advance(time.Duration(rng.Int64N(int64(2 * time.Second / time.Duration(limit)))))
			d, _ := l.Allow(ctx, "k", limit)
			if !d.Allowed {
				continue
			}
			accepted = append(accepted, clock.Now())
			// A probe on a copy of the key's state: R more fit, then one is refused.
			probe := copyOf(l, "k", clock.Now)
			for j := range d.Remaining {
				if p, _ := probe.Allow(ctx, "k", limit); !p.Allowed {
					t.Fatalf("trial %d, limit %d: Remaining %d but request %d refused", trial, limit, d.Remaining, j+1)
				}
			}
			if p, _ := probe.Allow(ctx, "k", limit); p.Allowed {
				t.Fatalf("trial %d, limit %d: Remaining %d but one more was accepted", trial, limit, d.Remaining)
			}
			// At Reset a quiet key has its whole limit again.
			full := copyOf(l, "k", func() time.Time { return d.Reset })
			if p, _ := full.Allow(ctx, "k", limit); p.Remaining != limit-1 {
				t.Fatalf("trial %d, limit %d: at Reset Remaining is %d, want %d", trial, limit, p.Remaining, limit-1)
			}
		}
		for i := range accepted {
			n := 0
			for j := i; j < len(accepted) && accepted[j].Sub(accepted[i]) < Window; j++ {
				n++
			}
			if n > 2*limit {
				t.Fatalf("trial %d: %d accepted within one second at %d/s", trial, n, limit)
			}
		}
	}
}

// copyOf returns a limiter whose state for key is l's, on the clock now.
func copyOf(l *Local, key string, now func() time.Time) *Local {
	c := NewLocal(Options{Now: now})
	c.start = l.start
	c.cell(key, 0).Store(l.cell(key, 0).Load())
	return c
}

func TestNewRate(t *testing.T) {
	for _, limit := range []int{1, 2, 50, 51, 1000, 1_000_000} {
		for _, unit := range []time.Duration{time.Nanosecond, time.Microsecond} {
			r, err := newRate(limit, unit)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.span / r.interval; got != int64(limit) {
				t.Errorf("newRate(%d, %v): burst %d, want the limit", limit, unit, got)
			}
			if want := max(1, int64(Window/unit)/int64(limit)); r.interval != want {
				t.Errorf("newRate(%d, %v): interval %d, want %d", limit, unit, r.interval, want)
			}
		}
	}
	for _, bad := range []int{0, -5} {
		if _, err := NewLocal(Options{}).Allow(context.Background(), "k", bad); !errors.Is(err, ErrInvalidLimit) {
			t.Errorf("Allow with limit %d: %v, want ErrInvalidLimit", bad, err)
		}
	}
}

func TestDecisionHeaders(t *testing.T) {
	tests := []struct {
		retry     time.Duration
		reset     time.Time
		wantRetry int
		wantReset int64
	}{
		{0, time.Unix(100, 0), 0, 100},
		{20 * time.Millisecond, time.Unix(100, 1), 1, 101},
		{time.Second, time.Unix(100, 999_999_999), 1, 101},
		{1500 * time.Millisecond, time.Unix(7, 0), 2, 7},
	}
	for _, tc := range tests {
		d := Decision{RetryAfter: tc.retry, Reset: tc.reset}
		if d.RetryAfterSeconds() != tc.wantRetry || d.ResetUnix() != tc.wantReset {
			t.Errorf("%+v: Retry-After %d, Reset %d; want %d, %d", d, d.RetryAfterSeconds(), d.ResetUnix(), tc.wantRetry, tc.wantReset)
		}
	}
}

func TestLocalAllowDoesNotAllocate(t *testing.T) {
	l := NewLocal(Options{})
	ctx := context.Background()
	l.Allow(ctx, "key_x", 1000)
	if n := testing.AllocsPerRun(1000, func() { l.Allow(ctx, "key_x", 1000) }); n != 0 {
		t.Errorf("Allow allocates %.1f times per call", n)
	}
}

func TestLocalSweepsIdleKeys(t *testing.T) {
	clock := &fakeClock{now: time.Unix(0, 0)}
	l := NewLocal(Options{Now: clock.Now})
	ctx := context.Background()
	for _, k := range []string{"a", "b", "c", "d"} {
		l.Allow(ctx, k, 10)
	}
	clock.Advance(2 * time.Minute)
	for i := range localShards * 8 { // enough new keys to touch every shard
		l.Allow(ctx, string(rune('A'+i%26))+string(rune('a'+i/26)), 10)
	}
	for i := range l.shards {
		s := &l.shards[i]
		for _, k := range []string{"a", "b", "c", "d"} {
			if s.cells[k] != nil {
				t.Errorf("idle key %q survived the sweep", k)
			}
		}
	}
}
