package graph

// rawEdge is an edge before it is packed into a CSR.
type rawEdge struct {
	tail, head, weight, segRef uint32
}

// buildCSR packs edges by tail (or by head, for the backward adjacency, in
// which case each entry names the tail). A counting sort keeps the input
// order within a node, so the result is deterministic.
func buildCSR(numNodes int, edges []rawEdge, backward bool) CSR {
	key := func(e *rawEdge) (owner, other uint32) {
		if backward {
			return e.head, e.tail
		}
		return e.tail, e.head
	}
	first := make([]uint32, numNodes+1)
	for i := range edges {
		owner, _ := key(&edges[i])
		first[owner+1]++
	}
	for v := range numNodes {
		first[v+1] += first[v]
	}
	next := make([]uint32, numNodes)
	copy(next, first[:numNodes])
	packed := make([]uint32, 3*len(edges))
	for i := range edges {
		e := &edges[i]
		owner, other := key(e)
		j := next[owner]
		next[owner]++
		packed[3*j], packed[3*j+1], packed[3*j+2] = other, e.weight, e.segRef
	}
	return CSR{First: first, Edges: packed}
}
