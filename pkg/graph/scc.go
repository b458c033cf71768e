package graph

// largestComponent marks the nodes of the largest strongly connected
// component of the graph, found with an iterative Tarjan's algorithm
// (Tarjan 1972) so that a country-sized graph does not exhaust the stack.
func largestComponent(c *CSR) []bool { return largestComponentOf(c, nil) }

// largestComponentOf is largestComponent over the edges keep accepts (all
// when keep is nil): keep(v, e) for edge e of node v.
func largestComponentOf(c *CSR, keep func(v, e uint32) bool) []bool {
	n := len(c.First) - 1
	const unvisited = ^uint32(0)
	index := make([]uint32, n)
	low := make([]uint32, n)
	onStack := make([]bool, n)
	comp := make([]uint32, n)
	for i := range index {
		index[i] = unvisited
	}
	var stack, callNode, callEdge []uint32
	var counter, numComps uint32
	var sizes []int
	for root := range n {
		if index[root] != unvisited {
			continue
		}
		callNode = append(callNode[:0], uint32(root))
		callEdge = append(callEdge[:0], c.First[root])
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, uint32(root))
		onStack[root] = true
		for len(callNode) > 0 {
			top := len(callNode) - 1
			v := callNode[top]
			if e := callEdge[top]; e < c.First[v+1] {
				callEdge[top]++
				if keep != nil && !keep(v, e) {
					continue
				}
				w := c.Edges[3*e]
				if index[w] == unvisited {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					callNode = append(callNode, w)
					callEdge = append(callEdge, c.First[w])
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			callNode, callEdge = callNode[:top], callEdge[:top]
			if top > 0 {
				parent := callNode[top-1]
				low[parent] = min(low[parent], low[v])
			}
			if low[v] == index[v] {
				size := 0
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = numComps
					size++
					if w == v {
						break
					}
				}
				sizes = append(sizes, size)
				numComps++
			}
		}
	}
	best := uint32(0)
	for i, s := range sizes {
		if s > sizes[best] {
			best = uint32(i)
		}
	}
	in := make([]bool, n)
	for v := range n {
		in[v] = len(sizes) > 0 && comp[v] == best
	}
	return in
}
