package api

import (
	"fmt"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/ledger"
)

// StatusClientClosed is the status logged and counted for a request whose
// client closed its connection before the answer was ready (nginx's 499).
// Nothing is sent, the hold is released and nothing is charged.
const StatusClientClosed = 499

// call is one compute request on its way through compute: what it holds
// (an admission slot, a credit reservation, an Idempotency-Key claim) and
// gives back in end whatever happens, so that a request not answered 200
// never costs anything.
type call struct {
	s        *Server
	ctx      *fasthttp.RequestCtx
	id       string
	deadline time.Time
	adm      *admission // nil when unmetered
	key      *keyClaim  // nil without an Idempotency-Key
	slot     func()     // releases the admission slot; nil when none is held
	// again is the charged request whose answer this one computes again,
	// free: its key's answer was stored as a hash (idempotency.go).
	again *ledger.Replay
}

// claim claims the Idempotency-Key, if any; false means the request was
// answered (a replay, or a problem).
func (c *call) claim(operation string) bool {
	if c.adm == nil {
		return true // unmetered: nothing is charged, so a retry is harmless
	}
	key, r, f := claimKey(c.ctx, c.s.cfg.Metering.Idempotency, c.adm.key.AccountID, operation, c.id)
	switch {
	case f != nil:
		c.s.fail(c.ctx, f)
		return false
	case r != nil && r.Answer == nil:
		c.again = r
		c.id = r.RequestID
		c.ctx.SetUserValue(requestIDKey{}, r.RequestID)
		return true
	case r != nil:
		replay(c.ctx, r)
		return false
	}
	c.key = key
	return true
}

// takeSlot waits for a computation slot; false means the request was
// shed, or its client left while it waited in the queue.
func (c *call) takeSlot(cost int64) bool {
	account := ""
	if c.adm != nil {
		account = c.adm.key.AccountID
	}
	release, waited, f := c.s.admission.acquire(account, cost, c.deadline)
	if f != nil {
		c.s.fail(c.ctx, f)
		return false
	}
	c.slot = release
	return !waited || !c.clientGone()
}

// freeSlot gives the slot back once the computation is done, before the
// charge, which may wait on the ledger's network.
func (c *call) freeSlot() {
	if c.slot != nil {
		c.slot()
		c.slot = nil
	}
}

// reserve holds the request's cost (when metered); false means it was
// refused and answered.
func (c *call) reserve(operation string, credits int64) bool {
	if c.adm == nil || c.again != nil {
		return true
	}
	if f := c.adm.reserve(c.ctx, operation, credits, c.id); f != nil {
		c.s.fail(c.ctx, f)
		return false
	}
	return true
}

// charged is what the answer says was charged: the reservation's credits
// when metered.
func (c *call) charged() int64 {
	if c.again != nil {
		return c.again.Credits
	}
	if c.adm == nil || !c.adm.held {
		return 0
	}
	return c.adm.resv.Credits
}

// clientGone answers nothing (499 in the log) when the client has closed
// its connection: it gave up, and must not be charged.
func (c *call) clientGone() bool {
	if !clientGone(c.ctx.Conn()) {
		return false
	}
	c.ctx.Response.Reset()
	c.ctx.SetStatusCode(StatusClientClosed)
	c.ctx.SetConnectionClose()
	return true
}

// late answers 503 when the computation ended past the request's deadline
// (Config.ComputeTimeout); the engines that take a context stop at it, the
// others (matrix, elevation: bounded to milliseconds) are checked here.
func (c *call) late() bool {
	if time.Now().Before(c.deadline) {
		return false
	}
	c.s.fail(c.ctx, &failure{kind: KindServiceUnavailable, retryAfter: 1,
		detail: fmt.Sprintf("the request did not finish within the server's limit of %v; it costs nothing, retry", c.s.cfg.ComputeTimeout)})
	return true
}

// charge stores the answer for the Idempotency-Key, if any, then commits
// the charge; false means the request was answered with a problem.
func (c *call) charge(answer []byte) bool {
	if c.adm == nil {
		return true
	}
	if c.again != nil {
		replayedAgain(c.ctx, c.again, answer)
		return true
	}
	if f := c.key.complete(answer); f != nil {
		c.s.fail(c.ctx, f)
		return false
	}
	credits := c.adm.resv.Credits
	err := c.adm.commit()
	c.key.finish(err)
	if err != nil {
		c.s.fail(c.ctx, unavailable("the ledger"))
		return false
	}
	c.ctx.SetUserValue(UserCreditsCharged, credits)
	return true
}

// end gives back whatever the request still holds: its slot, its
// reservation (a no-op once committed) and its key's claim.
func (c *call) end() {
	c.freeSlot()
	if c.adm != nil {
		c.adm.release()
	}
	c.key.abandon()
}
