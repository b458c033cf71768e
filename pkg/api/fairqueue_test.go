package api

import (
	"testing"
	"time"
)

// TestFairQueue (issue 34 item 4): an account alone may use every slot; a
// cheap request of another account, arriving while a greedy account holds
// every slot and has requests queued, gets the next slot freed before the
// greedy's queued ones; and while both are active the greedy account runs
// at most its share of the slots.
func TestFairQueue(t *testing.T) {
	a := newAdmitter(Admission{PerCore: 1, Cores: 2, Queue: 64, QueueTimeout: 5 * time.Second})
	far := time.Now().Add(time.Minute)
	var greedy []func()
	for range 2 {
		r, waited, f := a.acquire("greedy", 5, far)
		if f != nil || waited {
			t.Fatalf("an account alone was refused a free slot: %v", f)
		}
		greedy = append(greedy, r)
	}
	order := make(chan string, 16)
	for range 4 { // the greedy's backlog, queued first
		go func() {
			r, _, f := a.acquire("greedy", 5, far)
			if f == nil {
				order <- "greedy"
				r()
			}
		}()
	}
	for a.waiting.Load() < 4 {
		time.Sleep(time.Millisecond)
	}
	cheap := make(chan func())
	go func() {
		r, _, f := a.acquire("payer", 1, far)
		if f != nil {
			t.Errorf("the cheap request was shed: %s", f.detail)
		}
		order <- "payer"
		cheap <- r
	}()
	for a.waiting.Load() < 5 {
		time.Sleep(time.Millisecond)
	}
	greedy[0]() // one slot frees: it is the payer's, though queued last
	select {
	case first := <-order:
		if first != "payer" {
			t.Fatalf("the freed slot went to %s, want the payer's cheap request", first)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nobody got the freed slot")
	}
	// Both accounts active: the greedy account runs at most its share (1
	// of the 2 slots), so the slot the payer's request frees stays free for
	// the payer's next one, not for the greedy's backlog.
	(<-cheap)()
	a.mu.Lock()
	running, queued := a.accounts["greedy"].running, len(a.accounts["greedy"].waiters)
	a.mu.Unlock()
	if running != 1 || queued != 4 {
		t.Errorf("after the payer's request: the greedy account runs %d and queues %d, want 1 (its share) and 4", running, queued)
	}
	start := time.Now()
	r, _, f := a.acquire("payer", 1, time.Now().Add(time.Second))
	if f != nil {
		t.Fatalf("the payer's second request: %s", f.detail)
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("the payer's second request waited %v for the slot left free", took)
	}
	r()
	greedy[1]() // the greedy's backlog runs now
	for range 4 {
		select {
		case who := <-order:
			if who != "greedy" {
				t.Errorf("unexpected %s", who)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the greedy's backlog did not run once the slots were free")
		}
	}
}
