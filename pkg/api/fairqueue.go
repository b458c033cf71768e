package api

import (
	"fmt"
	"time"
)

// The fair queue (issue 34 item 4). Admission used to be one FIFO
// semaphore, so one key within its rate limit owned both cores: 50
// requests a second of 50-waypoint pedestrian directions moved another
// account's 2-point directions from p50 1.5 ms to 240 ms, 15 % of them
// shed. Now the unit of admission is what a request costs (its credits,
// known before it computes), and accounts share the slots fairly:
//
//   - Start-time fair queueing across accounts: a waiting request gets the
//     tag max(now, its account's last tag) + its cost, in virtual time
//     (credits), and a freed slot goes to the waiting request with the
//     smallest tag. An account that floods the queue spreads its tags far
//     ahead; a cheap request of an account with nothing waiting gets a tag
//     just past now and starts next. A request finds a free slot without
//     waiting only if nobody waits.
//   - A share cap: while several accounts were admitted in the last second
//     (activeWindow), one account may run at most its share of the slots,
//     ceil(slots / active accounts), so a heavy account cannot hold every
//     slot when another's cheap request arrives (a computation cannot be
//     paused: a slot freed only when a heavy one ends). Alone, an account
//     may use every slot.
//   - A bound per account on waiting requests (a quarter of the queue)
//     while several accounts are active, so one account's flood cannot
//     fill the queue and have everybody shed. Alone, an account may fill
//     it: with the bound always on, 512 clients of one account retrying at
//     once drew four times the refusals, and the expensive answers fell
//     from 0.66 to 0.2 of their rate at the limit (scripts/overload).
//
// Unmetered servers queue every request under one account: FIFO.

// activeWindow is how recently an account must have been admitted to count
// as active for the share cap.
const activeWindow = time.Second

// fairAccount is an account's requests running and waiting.
type fairAccount struct {
	running int
	last    int64     // the tag of its last request queued
	waiters []*waiter // in tag order
}

// waiter is a request waiting for a slot.
type waiter struct {
	account string
	start   int64         // virtual time it may start at
	tag     int64         // start + its cost
	ready   chan struct{} // closed when it is given a slot
	granted bool          // under admitter.mu
}

// acquire takes a slot for a request of account costing cost credits,
// waiting in the fair queue until deadline or the queue timeout, whichever
// comes first. It returns the release func and whether the request waited,
// or a failure to answer (503 with Retry-After).
func (a *admitter) acquire(account string, cost int64, deadline time.Time) (release func(), waited bool, f *failure) {
	if a.limit == 0 {
		return func() {}, false, nil
	}
	now := time.Now()
	a.mu.Lock()
	acct := a.account(account, now)
	if a.waiting.Load() == 0 && a.running < a.limit && acct.running < a.share(now) {
		a.start(account, acct)
		a.mu.Unlock()
		return func() { a.release(account) }, false, nil
	}
	switch {
	case a.waiting.Load() >= a.queue:
		a.forget(account, acct)
		a.mu.Unlock()
		return nil, false, a.shed("and the queue is full")
	case len(acct.waiters) >= a.perAccount && len(a.recent) > 1:
		a.forget(account, acct)
		a.mu.Unlock()
		return nil, false, a.shed(fmt.Sprintf("and this account already has %d requests waiting", a.perAccount))
	}
	w := &waiter{account: account, start: max(a.vnow, acct.last), ready: make(chan struct{})}
	w.tag = w.start + max(cost, 1)
	acct.last = w.tag
	acct.waiters = append(acct.waiters, w)
	a.waiting.Add(1)
	a.dispatch(now) // a slot may be free that only accounts over their share left
	a.mu.Unlock()

	wait := min(a.timeout, time.Until(deadline))
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-w.ready:
		return func() { a.release(account) }, true, nil
	case <-t.C:
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if w.granted { // given a slot as the timer fired
		return func() { a.release(account) }, true, nil
	}
	acct = a.accounts[account]
	for i, x := range acct.waiters {
		if x == w {
			acct.waiters = append(acct.waiters[:i], acct.waiters[i+1:]...)
			break
		}
	}
	a.waiting.Add(-1)
	a.forget(account, acct)
	return nil, true, a.shed(fmt.Sprintf("and none was free within %v", wait.Round(time.Millisecond)))
}

// account returns the account's entry, making it, and marks the account
// active. Call with a.mu held.
func (a *admitter) account(id string, now time.Time) *fairAccount {
	a.recent[id] = now
	acct, ok := a.accounts[id]
	if !ok {
		acct = &fairAccount{}
		a.accounts[id] = acct
	}
	return acct
}

// share is how many slots one account may run while others are active.
// Call with a.mu held; it forgets accounts idle for activeWindow.
func (a *admitter) share(now time.Time) int {
	for id, at := range a.recent {
		if now.Sub(at) > activeWindow {
			delete(a.recent, id)
		}
	}
	active := max(1, len(a.recent))
	return (a.limit + active - 1) / active
}

// start counts a request as running. Call with a.mu held.
func (a *admitter) start(id string, acct *fairAccount) {
	a.running++
	acct.running++
}

// forget drops an account's entry once it has nothing running or waiting.
func (a *admitter) forget(id string, acct *fairAccount) {
	if acct.running == 0 && len(acct.waiters) == 0 {
		delete(a.accounts, id)
	}
}

// release gives a slot back and dispatches.
func (a *admitter) release(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running--
	if acct, ok := a.accounts[id]; ok {
		acct.running--
		a.forget(id, acct)
	}
	a.dispatch(time.Now())
}

// dispatch hands the free slots to the waiting requests with the smallest
// tags whose accounts are within their share. Call with a.mu held.
func (a *admitter) dispatch(now time.Time) {
	share := a.share(now)
	for a.running < a.limit {
		var next *fairAccount
		for _, acct := range a.accounts {
			if len(acct.waiters) > 0 && acct.running < share && (next == nil || acct.waiters[0].tag < next.waiters[0].tag) {
				next = acct
			}
		}
		if next == nil {
			return
		}
		w := next.waiters[0]
		next.waiters = next.waiters[1:]
		a.waiting.Add(-1)
		a.vnow = max(a.vnow, w.start)
		a.start(w.account, next)
		w.granted = true
		close(w.ready)
	}
}

// lowSlots is how many computations of free surfaces (map tiles) may run at
// once: their own bound, below every paid request.
const lowSlots = 1

// AdmitLow gives a computation of a free surface (a map tile of mapd
// --playground) a slot at the lowest priority: only if a slot is free, no
// paid request waits and fewer than lowSlots such computations run. It
// never waits; ok false means "not now" (answer 503 with Retry-After).
// release must be called once the computation is done.
func (s *Server) AdmitLow() (release func(), ok bool) {
	a := s.admission
	if a.limit == 0 {
		return func() {}, true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.waiting.Load() > 0 || a.running >= a.limit || a.lowRunning >= lowSlots {
		return nil, false
	}
	a.running++
	a.lowRunning++
	return a.releaseLow, true
}

func (a *admitter) releaseLow() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running--
	a.lowRunning--
	a.dispatch(time.Now())
}
