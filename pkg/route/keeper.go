package route

import (
	"slices"

	"github.com/mapsco/maps/pkg/ch"
)

// keeper holds the routes kept so far, best first, with their footprints.
type keeper struct {
	r        *Router
	w        *altScratch
	best     *Route
	bestCost uint32
	e        Ends
	kept     []*Route
	t        *ch.Query // for the T-test: the caller's query holds the candidates
	bestHeld bool      // w.best holds the best route's footprint
}

func (k *keeper) start() {
	k.kept = []*Route{k.best}
	k.r.footprintOf(&k.w.prints[0], k.best.Legs[0], k.best.Snapped[0], k.best.Snapped[1])
	// A second query, from a pool of its own: taking it from the workers'
	// while holding one could leave every worker waiting for another.
	k.t, _ = k.r.tests.TryGet() // never waits: no more callers than workers
	k.t.SetState(k.best.st)
}

func (k *keeper) finish() { k.r.tests.Put(k.t) }

// verdict is what consider made of a candidate.
type verdict int

const (
	taken      verdict = iota
	sharesMuch         // not simple, or shares more than MaxShare with a route kept
	notLocal           // fails the T-test
)

// consider keeps leg when it is simple, shares at most MaxShare with every
// route kept and passes the T-test. simple says that leg is known to be
// simple (unloop leaves no segment travelled twice).
func (k *keeper) consider(leg Leg, simple bool) verdict {
	a, b := k.best.Snapped[0], k.best.Snapped[1]
	fp := &k.w.prints[len(k.kept)]
	k.r.footprintOf(fp, leg, a, b)
	if !k.shareLittle(fp, simple) {
		return sharesMuch
	}
	if !k.r.locallyOptimal(k.t, leg, k.bestCost) {
		return notLocal
	}
	leg.Arcs = slices.Clone(leg.Arcs)
	k.kept = append(k.kept, &Route{DistanceM: leg.DistanceM, DurationS: leg.DurationS, Legs: []Leg{leg},
		Snapped: k.best.Snapped, st: k.best.st, g: k.r.g})
	return taken
}

// shareLittle reports whether footprint fp is simple and shares at most
// MaxShare of the shorter with every route kept. While only the best route
// is kept (the default request's case), a simple fp is measured against
// the best route's footprint, held once per call, rather than held itself.
func (k *keeper) shareLittle(fp *footprint, simple bool) bool {
	if simple && len(k.kept) == 1 {
		best := &k.w.prints[0]
		if !k.bestHeld {
			k.w.best.hold(best, k.r.g.Net.NumSegments())
			k.bestHeld = true
		}
		return k.w.best.shared(fp) <= MaxShare*min(fp.total, best.total)
	}
	if !k.w.overlap.hold(fp, k.r.g.Net.NumSegments()) {
		return false
	}
	for i := range k.kept {
		other := &k.w.prints[i]
		if k.w.overlap.shared(other) > MaxShare*min(fp.total, other.total) {
			return false
		}
	}
	return true
}
