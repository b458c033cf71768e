package graph

// Accessors of the arcs packed in Fwd (three uint32 per arc: head, time,
// segment reference). Code outside this package reads arcs through these,
// so the layout of Fwd.Edges stays this package's business. Each is a
// bounds-checked load the compiler inlines.

// NumArcs returns the number of arcs, duplicates (dup.go) included.
func (g *Graph) NumArcs() uint32 { return uint32(len(g.Fwd.Edges) / 3) }

// ArcHead returns the node arc a ends at.
func (g *Graph) ArcHead(a uint32) uint32 { return g.Fwd.Edges[3*a] }

// ArcTime returns arc a's stored travel time in ms: its time when no
// condition applies (State.ArcTime gives its time at a moment).
func (g *Graph) ArcTime(a uint32) uint32 { return g.Fwd.Edges[3*a+1] }

// ArcSegRef returns arc a's segment reference (segment<<1 | reversed).
func (g *Graph) ArcSegRef(a uint32) uint32 { return g.Fwd.Edges[3*a+2] }

// ArcSegment returns the segment arc a travels, and whether it travels it
// against the segment's drawing direction.
func (g *Graph) ArcSegment(a uint32) (s uint32, reversed bool) {
	return SplitSegRef(g.Fwd.Edges[3*a+2])
}

// NumTurns returns the number of entries of the turn graph.
func (g *Graph) NumTurns() uint32 { return uint32(len(g.Turns.Edges) / 3) }
