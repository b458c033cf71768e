package ratelimit

import (
	"context"
	"errors"
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

// TestLocalGCRASteps walks a 50/s key (burst 5) through a burst, a denial
// and the recovery, on a fake clock.
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
		{0, true, 4, 20 * ms, 0},
		{0, true, 3, 40 * ms, 0},
		{0, true, 2, 60 * ms, 0},
		{0, true, 1, 80 * ms, 0},
		{0, true, 0, 100 * ms, 0},
		{0, false, 0, 100 * ms, 20 * ms},
		{10 * ms, false, 0, 100 * ms, 10 * ms},
		{10 * ms, true, 0, 120 * ms, 0},
		{200 * ms, true, 4, 240 * ms, 0}, // drained: full burst again
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		d, err := l.Allow(context.Background(), "key_a", 50)
		if err != nil {
			t.Fatal(err)
		}
		want := Decision{Allowed: st.allowed, Limit: 50, Remaining: st.remaining, Reset: t0.Add(st.reset), RetryAfter: st.retryAfter}
		if d != want {
			t.Errorf("step %d: %+v, want %+v", i, d, want)
		}
	}
	if d, _ := l.Allow(context.Background(), "key_b", 50); !d.Allowed || d.Remaining != 4 {
		t.Errorf("another key shares the first key's state: %+v", d)
	}
}

func TestNewRate(t *testing.T) {
	tests := []struct {
		limit     int
		window    time.Duration
		wantBurst int64
	}{
		{1, 100 * time.Millisecond, 1},
		{50, 100 * time.Millisecond, 5},
		{51, 100 * time.Millisecond, 6},
		{1000, 100 * time.Millisecond, 100},
		{50, time.Second, 50},
	}
	for _, tc := range tests {
		r, err := newRate(tc.limit, tc.window, time.Nanosecond)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.span / r.interval; got != tc.wantBurst || r.interval != int64(time.Second)/int64(tc.limit) {
			t.Errorf("newRate(%d, %v): burst %d interval %d, want burst %d", tc.limit, tc.window, got, r.interval, tc.wantBurst)
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
