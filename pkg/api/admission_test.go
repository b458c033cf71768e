package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ratelimit"
)

func TestAdmitterQueueAndShed(t *testing.T) {
	a := newAdmitter(Admission{PerCore: 1, Queue: 1, QueueTimeout: 50 * time.Millisecond})
	far := time.Now().Add(time.Minute)
	var releases []func()
	for range a.limit {
		r, _, f := a.acquire("", 1, far)
		if f != nil {
			t.Fatalf("a free slot was refused: %s", f.detail)
		}
		releases = append(releases, r)
	}
	// The queue's one place: a waiter that gets the slot freed for it.
	got := make(chan *failure, 1)
	go func() {
		r, _, f := a.acquire("", 1, far)
		if f == nil {
			r()
		}
		got <- f
	}()
	for a.waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if !a.full() {
		t.Fatal("every slot busy and the queue full, but full() is false")
	}
	if _, _, f := a.acquire("", 1, far); f == nil || !strings.Contains(f.detail, "queue is full") || f.retryAfter != 1 {
		t.Fatalf("beyond the queue: %+v, want an immediate 503 with Retry-After", f)
	}
	releases[0]()
	if f := <-got; f != nil {
		t.Fatalf("the queued request was shed: %s", f.detail)
	}
	if _, _, f := a.acquire("", 1, far); f != nil { // busy again
		t.Fatal(f.detail)
	}
	// A wait bounded by the queue timeout, and by the request's deadline.
	for _, c := range []struct {
		deadline time.Duration // from now
		max      time.Duration
	}{{time.Minute, 50 * time.Millisecond}, {10 * time.Millisecond, 10 * time.Millisecond}} {
		start := time.Now()
		if _, _, f := a.acquire("", 1, start.Add(c.deadline)); f == nil || !strings.Contains(f.detail, "none was free within") {
			t.Fatalf("with every slot busy: %+v", f)
		}
		if took := time.Since(start); took < c.max || took > c.max+time.Second {
			t.Errorf("shed after %v, want about %v", took, c.max)
		}
	}
	if off := newAdmitter(Admission{PerCore: -1}); off.limit != 0 {
		t.Error("PerCore < 0 still limits")
	}
}

// TestSheddingIsFree: with every slot busy, a directions request is answered
// 503 with Retry-After before any credit is held, and a one-point elevation
// (light) is still served.
func TestSheddingIsFree(t *testing.T) {
	fm := &fakeMeter{info: ledger.KeyInfo{KeyID: "key_1", AccountID: "acct_1", Kind: ledger.KindSecret, AccountStatus: ledger.StatusActive}}
	s, err := New(Config{Releases: fakeHolder("car"), Admission: Admission{PerCore: 1, Queue: 1, QueueTimeout: time.Millisecond},
		Metering: &Metering{Meter: fm, Limiter: ratelimit.NewLocal(ratelimit.Options{}), DefaultRate: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	for range s.admission.limit {
		release, _, _ := s.admission.acquire("acct_1", 1, time.Now().Add(time.Minute))
		defer release()
	}
	ctx := post(s, "/v1/directions", "Bearer sk_x", `{"coordinates":[[1.52,42.50],[1.73,42.54]]}`)
	var p Problem
	json.Unmarshal(ctx.Response.Body(), &p)
	if ctx.Response.StatusCode() != 503 || string(ctx.Response.Header.Peek("Retry-After")) != "1" || !strings.Contains(p.Detail, "costs nothing") {
		t.Fatalf("shed: %d %s %s", ctx.Response.StatusCode(), ctx.Response.Header.Peek("Retry-After"), ctx.Response.Body())
	}
	if fm.reserves.Load() != 0 {
		t.Errorf("a shed request reserved credits")
	}
	if ctx := post(s, "/v1/elevation", "Bearer sk_x", `{"coordinates":[[1.5,42.5]]}`); ctx.Response.StatusCode() != 200 {
		t.Errorf("elevation while shedding: %d %s", ctx.Response.StatusCode(), ctx.Response.Body())
	}
}

// TestComputeTimeout: an answer ready after the deadline is a 503 that
// costs nothing: released, never committed.
func TestComputeTimeout(t *testing.T) {
	fm := &fakeMeter{info: ledger.KeyInfo{KeyID: "key_1", AccountID: "acct_1", Kind: ledger.KindSecret, AccountStatus: ledger.StatusActive}}
	s, _ := New(Config{Releases: fakeHolder("car"), ComputeTimeout: time.Nanosecond,
		Metering: &Metering{Meter: fm, Limiter: ratelimit.NewLocal(ratelimit.Options{}), DefaultRate: 1000}})
	ctx := post(s, "/v1/elevation", "Bearer sk_x", `{"coordinates":[[1.5,42.5]]}`)
	if ctx.Response.StatusCode() != 503 || !strings.Contains(string(ctx.Response.Body()), "did not finish within the server's limit of 1ns") {
		t.Fatalf("past the deadline: %d %s", ctx.Response.StatusCode(), ctx.Response.Body())
	}
	if fm.commits.Load() != 0 || fm.releases.Load() != fm.reserves.Load() {
		t.Errorf("reserves %d commits %d releases %d: a late answer was charged", fm.reserves.Load(), fm.commits.Load(), fm.releases.Load())
	}
}
