package match

import (
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// candidateSet holds every fix's candidates in one slice: those of point
// i are all[start[i]:start[i+1]], nearest first.
type candidateSet struct {
	all   []snap.Result
	start []int
	sigma float64   // estimated (or set) for points without a radius
	sig   []float64 // per point: the GPS error its emissions use
}

func (c *candidateSet) of(i int) (lo, hi int) { return c.start[i], c.start[i+1] }

// candidates finds each fix's candidates: first out to DefaultSearchRadius
// (or three times its radius), then, sigma known, only those within three
// sigmas.
func (m *Matcher) candidates(t Trace, st *graph.State) candidateSet {
	f := m.r.Finder()
	n := len(t.Points)
	cs := candidateSet{start: make([]int, n+1), sig: make([]float64, n)}
	cs.all = make([]snap.Result, 0, 3*n)
	for i, p := range t.Points {
		radius := DefaultSearchRadius
		if r := at(t.Radiuses, i); r > 0 {
			radius = 3 * r
		}
		cs.all = f.Candidates(p[0], p[1], radius, m.opts.Candidates, st, cs.all)
		cs.start[i+1] = len(cs.all)
	}
	cs.sigma = m.opts.Sigma
	if cs.sigma <= 0 {
		cs.sigma = estimateSigma(&cs, t.Radiuses)
	}
	for i := range n {
		cs.sig[i] = cs.sigma
		if r := at(t.Radiuses, i); r > 0 {
			cs.sig[i] = r
		}
	}
	cs.keepWithin(3)
	return cs
}

// estimateSigma is Newson and Krumm's estimate of the GPS error: 1.4826
// times the median distance from a fix to its nearest road (a median
// absolute deviation), over the fixes without a radius that have a road
// near, kept within [MinSigma, MaxSigma].
func estimateSigma(cs *candidateSet, radiuses []float64) float64 {
	var d []float64
	for i := range len(cs.start) - 1 {
		if lo, hi := cs.of(i); hi > lo && at(radiuses, i) <= 0 {
			d = append(d, cs.all[lo].Dist)
		}
	}
	if len(d) == 0 {
		return MinSigma
	}
	slices.Sort(d)
	return max(MinSigma, min(MaxSigma, 1.4826*d[len(d)/2]))
}

// keepWithin drops each point's candidates farther than k of its sigmas.
func (c *candidateSet) keepWithin(k float64) {
	w := 0
	lo := 0
	for i := range len(c.start) - 1 {
		hi := c.start[i+1]
		c.start[i] = w
		for _, r := range c.all[lo:hi] {
			if r.Dist <= k*c.sig[i] {
				c.all[w] = r
				w++
			}
		}
		lo = hi
	}
	c.start[len(c.start)-1] = w
	c.all = c.all[:w]
}

// emission is the log of a candidate's emission probability, but for a
// constant: a Gaussian of its distance.
func emission(d, sigma float64) float64 {
	z := d / sigma
	return -0.5 * z * z
}

// transition is the log of a transition's probability, but for a
// constant: exponential in how much the road distance differs from the
// great-circle one.
func transition(road, crow, beta float64) float64 {
	return -math.Abs(road-crow) / beta
}

func at(s []float64, i int) float64 {
	if i < len(s) {
		return s[i]
	}
	return 0
}
