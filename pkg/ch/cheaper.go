package ch

import (
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// CheaperThan reports whether a path from node from to node to costs less
// than bound, as Cost from and to them at no cost would find, searching
// only below bound: neither direction queues a node it reaches at bound or
// more, and the search ends at the first meeting below it. The T-test of alternatives
// asks it of a stretch whose own cost is the bound: a failing stretch is
// answered by the first cheaper meeting, and a passing one by searches
// that never look past the stretch's cost.
func (q *Query) CheaperThan(from, to uint32, bound uint32) bool {
	q.seed([]search.Seed{{Node: from}}, []search.Seed{{Node: to}})
	for {
		kf, kb := q.fwd.heap.MinCost(), q.bwd.heap.MinCost()
		doneF, doneB := kf >= bound, kb >= bound
		if doneF && doneB {
			return false
		}
		a, b := &q.bwd, &q.fwd
		if !doneF && (doneB || kf <= kb) {
			a, b = &q.fwd, &q.bwd
		}
		c, u := a.heap.Pop()
		if c != a.labels.Get(u).cost {
			continue
		}
		if search.Add(c, b.cost(u)) < bound {
			return true
		}
		for i := a.first[u]; i < a.first[u+1]; i++ {
			e := at(a.list, i)
			if w := q.now(u, e, a.up); w != graph.NoWay {
				if nc := search.Add(c, w); nc < bound {
					q.improve(a, e.other, nc, u, e.middle, e.weight)
				}
			}
		}
	}
}
