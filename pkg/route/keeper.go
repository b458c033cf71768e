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

// consider keeps leg when it is simple, shares at most MaxShare with every
// route kept and passes the T-test.
func (k *keeper) consider(leg Leg) {
	a, b := k.best.Snapped[0], k.best.Snapped[1]
	fp := &k.w.prints[len(k.kept)]
	k.r.footprintOf(fp, leg, a, b)
	if !k.w.overlap.hold(fp, k.r.g.Net.NumSegments()) {
		return
	}
	for i := range k.kept {
		other := &k.w.prints[i]
		if k.w.overlap.shared(other) > MaxShare*min(fp.total, other.total) {
			return
		}
	}
	ok, cum := k.r.locallyOptimal(k.t, k.e, leg, k.bestCost, k.w.cum)
	k.w.cum = cum
	if !ok {
		return
	}
	leg.Arcs = slices.Clone(leg.Arcs)
	k.kept = append(k.kept, &Route{DistanceM: leg.DistanceM, DurationS: leg.DurationS, Legs: []Leg{leg},
		Snapped: k.best.Snapped, st: k.best.st, g: k.r.g})
}
