package shared

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// CloseGate keeps charges out of a ledger that is closing (issue 34 item
// 3). mapd closes its ledger when its drain ends, while handlers may still
// run: a request that was computing, or that arrived on a kept-alive
// connection, could otherwise commit while Close applied the last charges
// and marked the files closed, and be answered 200 with no usage record.
// Reserve, Commit and Release pass the gate; once Close begins, the gate
// refuses them with ErrUnavailable (the request answers 503, and Close
// cancels whatever it still holds), and Close waits for those already
// inside to leave, so every Commit that returned nil is applied by Close.
//
// Two atomics rather than a lock: Enter and Exit cost a few nanoseconds on
// the request path, and only Close waits.
type CloseGate struct {
	inside  atomic.Int64
	closing atomic.Bool
}

// errClosing is the gate's refusal.
var errClosing = fmt.Errorf("%w: the ledger is closing", ledger.ErrUnavailable)

// Enter lets a per-request call in, or refuses it once Close began.
func (g *CloseGate) Enter() error {
	g.inside.Add(1)
	if g.closing.Load() {
		g.inside.Add(-1)
		return errClosing
	}
	return nil
}

func (g *CloseGate) Exit() { g.inside.Add(-1) }

// Close refuses every later call and waits for the calls inside to leave.
// (Sequentially consistent atomics: a call that entered before closing was
// set is counted here; one that entered after sees closing.)
func (g *CloseGate) Close() {
	g.closing.Store(true)
	for g.inside.Load() > 0 {
		time.Sleep(100 * time.Microsecond)
	}
}
