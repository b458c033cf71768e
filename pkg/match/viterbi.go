package match

import (
	"context"
	"math"

	"github.com/mapsco/maps/pkg/geo"
)

// part is one matching before its route is built.
type part struct {
	points []int     // input index of each waypoint (the fixes kept)
	chosen []int     // per waypoint: index in candidateSet.all of its candidate
	share  []float64 // per waypoint: posterior share of its candidate
	folded []int     // fixes kept out of the model (near the previous), in order
	span   int       // fixes from the first waypoint to the last, folded ones excepted
}

// chain is Viterbi's state over one part: per candidate (indexed as
// candidateSet.all) its best log probability and the candidate before it.
type chain struct {
	score []float64
	back  []int32
}

// viterbi splits the trace into parts and matches each (package comment).
func (m *Matcher) viterbi(ctx context.Context, s *distSearch, t Trace, cs candidateSet) ([]part, error) {
	ch := chain{score: make([]float64, len(cs.all)), back: make([]int32, len(cs.all))}
	var parts []part
	for i := 0; i < len(t.Points); {
		if lo, hi := cs.of(i); lo == hi {
			i++ // no road near: an outlier
			continue
		}
		p, next, err := m.extend(ctx, s, t, cs, &ch, i)
		if err != nil {
			return nil, err
		}
		if len(p.points) >= 2 {
			parts = append(parts, p)
		}
		i = next
	}
	return parts, nil
}

// extend matches from fix start as far as the trace can be joined and
// returns the part and the fix the next part starts from.
func (m *Matcher) extend(ctx context.Context, s *distSearch, t Trace, cs candidateSet, ch *chain, start int) (part, int, error) {
	p := part{points: []int{start}}
	lo, hi := cs.of(start)
	for c := lo; c < hi; c++ {
		ch.score[c] = emission(cs.all[c].Dist, cs.sig[start])
		ch.back[c] = -1
	}
	last, drops, firstDrop, next := start, 0, -1, len(t.Points)
	var dists []uint32
	targets := make([]target, 0, m.opts.Candidates)
	for q := start + 1; q < len(t.Points); q++ {
		if err := ctx.Err(); err != nil {
			return part{}, 0, err
		}
		if len(t.Times) > 0 && t.Times[q]-t.Times[last] > m.opts.MaxGap {
			next = q
			break
		}
		crow := geo.Distance(t.Points[last][0], t.Points[last][1], t.Points[q][0], t.Points[q][1])
		if crow < 2*cs.sig[q] && drops == 0 {
			p.folded = append(p.folded, q)
			continue
		}
		if !m.step(s, cs, ch, last, q, crow, &targets, &dists) {
			if drops == 0 {
				firstDrop = q
			}
			if drops++; drops > m.opts.MaxDrops {
				next = firstDrop
				break
			}
			continue
		}
		p.points = append(p.points, q)
		p.span += drops + 1
		last, drops = q, 0
	}
	if drops > 0 && next == len(t.Points) {
		next = firstDrop // the trace ended unreachable: start again after the part
		if next <= last {
			next = last + 1
		}
	}
	p.span++
	m.backtrack(cs, ch, &p)
	if next <= start {
		next = start + 1
	}
	return p, next, nil
}

// step scores the candidates of fix q from those of fix last, crow metres
// apart; false when none of q's candidates can be reached.
func (m *Matcher) step(s *distSearch, cs candidateSet, ch *chain, last, q int, crow float64, targets *[]target, dists *[]uint32) bool {
	beta := m.opts.Beta
	if beta <= 0 {
		beta = cs.sig[q]
	}
	qlo, qhi := cs.of(q)
	*targets = (*targets)[:0]
	for c := qlo; c < qhi; c++ {
		r := cs.all[c]
		*targets = append(*targets, target{p: r, len: uint32(math.Round(float64(s.g.Net.SegLength[r.Seg]) * 100))})
		ch.score[c] = math.Inf(-1)
		ch.back[c] = -1
	}
	// A transition longer than this is less likely than e^-(crow+200/β):
	// not worth a search, and the fix is better dropped.
	bound := uint32(math.Min(100*(2*crow+6*cs.sig[q]+200), 4e9))
	jitter := uint32(100 * 2 * cs.sig[q])
	llo, lhi := cs.of(last)
	reached := false
	for a := llo; a < lhi; a++ {
		if math.IsInf(ch.score[a], -1) {
			continue
		}
		*dists = s.dists(cs.all[a], *targets, bound, jitter, (*dists)[:0])
		for j, d := range *dists {
			if d == unreachable {
				continue
			}
			c := qlo + j
			v := ch.score[a] + transition(float64(d)/100, crow, beta)
			if v > ch.score[c] {
				ch.score[c], ch.back[c] = v, int32(a)
				reached = true
			}
		}
	}
	if !reached {
		return false
	}
	for c := qlo; c < qhi; c++ {
		ch.score[c] += emission(cs.all[c].Dist, cs.sig[q])
	}
	return true
}

// backtrack reads the chosen candidates from the last waypoint back, and
// each waypoint's posterior share.
func (m *Matcher) backtrack(cs candidateSet, ch *chain, p *part) {
	n := len(p.points)
	p.chosen = make([]int, n)
	p.share = make([]float64, n)
	lo, hi := cs.of(p.points[n-1])
	best := lo
	for c := lo; c < hi; c++ {
		if ch.score[c] > ch.score[best] {
			best = c
		}
	}
	for k := n - 1; k >= 0; k-- {
		p.chosen[k] = best
		p.share[k] = share(cs, ch, p.points[k], best)
		best = int(ch.back[best])
	}
}

// share is candidate c's part of fix i's probability mass.
func share(cs candidateSet, ch *chain, i, c int) float64 {
	lo, hi := cs.of(i)
	sum := 0.0
	for o := lo; o < hi; o++ {
		if !math.IsInf(ch.score[o], -1) {
			sum += math.Exp(ch.score[o] - ch.score[c])
		}
	}
	return 1 / sum
}
