package match

import (
	"context"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/geo"
)

// part is one matching before its route is built.
type part struct {
	points  []int     // input index of each waypoint (the fixes kept)
	chosen  []int     // per waypoint: its state (chain), candidate chosen/2 travelled in direction chosen%2
	share   []float64 // per waypoint: posterior share of its candidate
	folded  []int     // fixes kept out of the model (near the previous), in order
	span    int       // fixes from the first waypoint to the last, folded ones excepted
	dropped int       // of those, the ones dropped as unreachable
}

// chain is Viterbi's state over one part. The model's states are a
// candidate and a direction of travel along its road (state 2c+d for
// candidate c of candidateSet.all, d 0 along the segment, 1 against): per
// state its best log probability, the state before it, and where the
// vehicle is when the state is chosen: the state itself or, when the fix
// lies a little behind the vehicle's last position on its road (a stop, a
// crawl, with noisy fixes: the vehicle did not drive backwards), the
// state of that position.
type chain struct {
	score []float64
	back  []int32
	at    []int32
}

// viterbi splits the trace into parts and matches each (package comment).
func (m *Matcher) viterbi(ctx context.Context, s *distSearch, t Trace, cs candidateSet) ([]part, error) {
	n := 2 * len(cs.all)
	ch := chain{score: make([]float64, n), back: make([]int32, n), at: make([]int32, n)}
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
		for d := range 2 {
			st := 2*c + d
			ch.score[st], ch.back[st], ch.at[st] = math.Inf(-1), -1, int32(st)
			if _, ok := s.arc(cs.all[c].Seg, d); ok {
				ch.score[st] = emission(cs.all[c].Dist, cs.sig[start])
			}
		}
	}
	last, drops, firstDrop, next := start, 0, -1, len(t.Points)
	var dists []uint32
	var sc searched
	targets := make([]target, 0, MaxCandidates)
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
		if !m.step(s, &sc, cs, ch, last, q, crow, &targets, &dists) {
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
		p.dropped += drops
		last, drops = q, 0
	}
	if drops > 0 && next == len(t.Points) {
		next = firstDrop // the trace ended unreachable: start again after the part
	}
	p.span++
	m.backtrack(cs, ch, &p)
	if next <= start {
		next = start + 1
	}
	return p, next, nil
}

// step scores the states of fix q from those of fix last, crow metres
// apart; false when none of q's states can be reached.
func (m *Matcher) step(s *distSearch, sc *searched, cs candidateSet, ch *chain, last, q int, crow float64, targets *[]target, dists *[]uint32) bool {
	beta := m.opts.Beta
	if beta <= 0 {
		beta = cs.sig[q]
	}
	qlo, qhi := cs.of(q)
	*targets = (*targets)[:0]
	for c := qlo; c < qhi; c++ {
		r := cs.all[c]
		*targets = append(*targets, target{p: r, len: uint32(math.Round(float64(s.g.Net.SegLength[r.Seg]) * 100))})
		for st := 2 * c; st < 2*c+2; st++ {
			ch.score[st], ch.back[st], ch.at[st] = math.Inf(-1), -1, int32(st)
		}
	}
	// A transition longer than this is less likely than e^-(crow+200/β):
	// not worth a search, and the fix is better dropped.
	bound := uint32(math.Min(100*(2*crow+6*cs.sig[q]+200), 4e9))
	slack := uint32(math.Min(100*10*beta, 4e9))
	turn := uint32(100 * turnSigmas * cs.sig[q])
	// A fix up to 6 sigmas behind the vehicle's position may be noise
	// about a stop: the difference of two fixes' errors along the road is
	// within 3√2 sigmas nearly always, and sigma, from the nearest road of
	// each fix, is rather under-estimated than over.
	stay := uint32(100 * 6 * cs.sig[q])
	llo, lhi := cs.of(last)
	sc.group(ch, llo, lhi)
	reached := false
	for _, src := range sc.order() {
		at := 2 * src.cand
		for dir := range 2 {
			limit(*targets, ch, qlo, src.score[dir], src.score[1-dir], crow, float64(turn)/100, beta, bound)
			sc.dists[dir] = s.dists(cs.all[src.cand], dir, *targets, slack, sc.dists[dir][:0])
		}
		both := sc.dists
		for sa := 2 * llo; sa < 2*lhi; sa++ {
			if math.IsInf(ch.score[sa], -1) || int(ch.at[sa])/2 != at/2 {
				continue
			}
			dir := int(ch.at[sa]) % 2
			*dists = turned(both[dir], both[1-dir], turn, (*dists)[:0])
			for j := range *targets {
				c := qlo + j
				for d := range 2 {
					if dist := (*dists)[2*j+d]; dist != unreachable {
						reached = ch.offer(2*c+d, sa, int32(2*c+d), ch.score[sa]+transition(float64(dist)/100, crow, beta)) || reached
					}
				}
				// Behind the vehicle on its road, by no more than the noise
				// of two fixes: it may have stayed where it was.
				if back, ok := s.ahead(cs.all[c], cs.all[at/2], dir); ok && back <= stay {
					reached = ch.offer(2*c+dir, sa, ch.at[sa], ch.score[sa]+transition(0, crow, beta)) || reached
				}
			}
		}
	}
	if !reached {
		return false
	}
	for st := 2 * qlo; st < 2*qhi; st++ {
		ch.score[st] += emission(cs.all[st/2].Dist, cs.sig[q])
	}
	return true
}

// turnSigmas is what turning round between two fixes costs, in sigmas of
// distance: as likely as a detour of that length.
const turnSigmas = 5.0

// offer makes state st come from state from, the vehicle at state at, if
// v beats what st has; of equal ones, the lowest from wins, whatever the
// order the offers come in (step: best source first).
func (ch *chain) offer(st, from int, at int32, v float64) bool {
	if v < ch.score[st] || v == ch.score[st] && int32(from) >= ch.back[st] {
		return false
	}
	ch.score[st], ch.back[st], ch.at[st] = v, int32(from), at
	return true
}

// backtrack reads the chosen states from the last waypoint back, and each
// waypoint's posterior share.
func (m *Matcher) backtrack(cs candidateSet, ch *chain, p *part) {
	n := len(p.points)
	p.chosen = make([]int, n)
	p.share = make([]float64, n)
	lo, hi := cs.of(p.points[n-1])
	best := 2 * lo
	for st := 2 * lo; st < 2*hi; st++ {
		if ch.score[st] > ch.score[best] {
			best = st
		}
	}
	for k := n - 1; k >= 0; k-- {
		p.chosen[k] = best
		p.share[k] = share(cs, ch, p.points[k], best)
		best = int(ch.back[best])
	}
	p.foldStays(ch)
}

// foldStays takes the waypoints where the vehicle stayed (chain.at) out of
// the route: a leg to a point behind the last would go round the block.
// They are placed like the fixes folded before the model (placeFolded).
func (p *part) foldStays(ch *chain) {
	w := 0
	for k, st := range p.chosen {
		if k > 0 && int(ch.at[st]) != st {
			p.folded = append(p.folded, p.points[k])
			continue
		}
		p.points[w], p.chosen[w], p.share[w] = p.points[k], st, p.share[k]
		w++
	}
	p.points, p.chosen, p.share = p.points[:w], p.chosen[:w], p.share[:w]
	slices.Sort(p.folded)
}

// share is state st's part of fix i's probability mass.
func share(cs candidateSet, ch *chain, i, st int) float64 {
	lo, hi := cs.of(i)
	sum := 0.0
	for o := 2 * lo; o < 2*hi; o++ {
		if !math.IsInf(ch.score[o], -1) {
			sum += math.Exp(ch.score[o] - ch.score[st])
		}
	}
	return 1 / sum
}

// searched is one step's sources: the candidates its live states stand
// at (chain.at: the search from a candidate serves every state standing
// there), and the distances from one of them to the next fix's
// candidates, leaving it in either direction.
type searched struct {
	src   []source
	dists [2][]uint32
}

// source is a candidate live states stand at, and the best score of those
// leaving it forward and backward (-Inf for none).
type source struct {
	cand  int
	score [2]float64
}

// group collects the candidates the live states of candidates [lo, hi)
// stand at.
func (sc *searched) group(ch *chain, lo, hi int) {
	sc.src = sc.src[:0]
	for sa := 2 * lo; sa < 2*hi; sa++ {
		v := ch.score[sa]
		if math.IsInf(v, -1) {
			continue
		}
		at := int(ch.at[sa])
		i := slices.IndexFunc(sc.src, func(o source) bool { return o.cand == at/2 })
		if i < 0 {
			i = len(sc.src)
			sc.src = append(sc.src, source{cand: at / 2, score: [2]float64{math.Inf(-1), math.Inf(-1)}})
		}
		sc.src[i].score[at%2] = max(sc.src[i].score[at%2], v)
	}
}

// order sorts the sources by best score, best first, and returns them:
// the best sources' transitions set the bar the others must clear
// (limit), and most of those need no search, or a short one.
func (sc *searched) order() []source {
	best := func(s source) float64 { return max(s.score[0], s.score[1]) }
	for i := 1; i < len(sc.src); i++ { // insertion sort: at most 2 × Candidates
		for j := i; j > 0 && best(sc.src[j]) > best(sc.src[j-1]); j-- {
			sc.src[j], sc.src[j-1] = sc.src[j-1], sc.src[j]
		}
	}
	return sc.src
}

// limit sets, per state of the next fix, how far a search leaving a
// source in one direction may go and still give that state a better
// score than it has. The search serves the source's states leaving that
// way (best score own) and, after turning on the spot (turnM metres
// more), those leaving the other way (best score other). A transition
// from a state of score v to one of score w at road distance d scores
// v − |d − crow|/β, which beats w only when d ≤ crow + β(v − w). A state
// no source has reached yet is looked for as far as bound; one no
// transition from here can improve, not at all. Viterbi's answer is the
// same: only transitions that could not win go unsearched.
func limit(targets []target, ch *chain, qlo int, own, other, crow, turnM, beta float64, boundCM uint32) {
	for j := range targets {
		t := &targets[j]
		for d := range 2 {
			w := ch.score[2*(qlo+j)+d]
			t.want[d], t.lim[d] = true, boundCM
			if math.IsInf(w, -1) {
				continue
			}
			reach := math.Inf(-1)
			if own >= w {
				reach = crow + beta*(own-w)
			}
			if other >= w {
				reach = max(reach, crow-turnM+beta*(other-w))
			}
			// One metre more, for rounding: an offer that ties still counts.
			if t.want[d] = reach >= -1; t.want[d] {
				t.lim[d] = uint32(min(float64(boundCM), 100*(max(reach, 0)+1)))
			}
		}
	}
}
