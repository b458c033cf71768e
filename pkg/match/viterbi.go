package match

import (
	"context"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/snap"
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
	sc.reset()
	reached := false
	for sa := 2 * llo; sa < 2*lhi; sa++ {
		if math.IsInf(ch.score[sa], -1) {
			continue
		}
		at := int(ch.at[sa])
		from, dir := cs.all[at/2], at%2
		both := sc.from(s, at/2, from, *targets, bound, slack)
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
			if back, ok := s.ahead(cs.all[c], from, dir); ok && back <= stay {
				reached = ch.offer(2*c+dir, sa, int32(at), ch.score[sa]+transition(0, crow, beta)) || reached
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
// v beats what st has.
func (ch *chain) offer(st, from int, at int32, v float64) bool {
	if v <= ch.score[st] {
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

// searched keeps, within one step, the distances from each position
// searched from, leaving it either way: the two states of a candidate, and
// states where the vehicle stayed at one position, share them.
type searched struct {
	pos   []int
	dists [][2][]uint32
}

func (sc *searched) reset() { sc.pos = sc.pos[:0] }

// from returns the distances from position pos (candidate from) to the
// targets, leaving it in direction 0 and in direction 1.
func (sc *searched) from(s *distSearch, pos int, from snap.Result, targets []target, bound, slack uint32) [2][]uint32 {
	for i, p := range sc.pos {
		if p == pos {
			return sc.dists[i]
		}
	}
	i := len(sc.pos)
	sc.pos = append(sc.pos, pos)
	if i == len(sc.dists) {
		sc.dists = append(sc.dists, [2][]uint32{})
	}
	for dir := range 2 {
		sc.dists[i][dir] = s.dists(from, dir, targets, bound, slack, sc.dists[i][dir][:0])
	}
	return sc.dists[i]
}
