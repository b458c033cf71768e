package ch

import (
	"fmt"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/graph"
)

func sections(profile string) (upFirst, up, dnFirst, dn, varyFirst, vary string) {
	return profile + ".ch_up_first", profile + ".ch_up", profile + ".ch_dn_first", profile + ".ch_dn",
		profile + ".ch_vary_first", profile + ".ch_vary"
}

// Write adds profile's hierarchy to an artifact.
func (h *Hierarchy) Write(w *artifact.Writer, profile string) error {
	uf, u, df, d, vf, v := sections(profile)
	for _, err := range []error{
		artifact.AddSlice(w, uf, h.UpFirst), artifact.AddSlice(w, u, h.Up),
		artifact.AddSlice(w, df, h.DnFirst), artifact.AddSlice(w, d, h.Dn),
		artifact.AddSlice(w, vf, h.VaryFirst), artifact.AddSlice(w, v, h.Vary),
	} {
		if err != nil {
			return fmt.Errorf("ch: %w", err)
		}
	}
	return nil
}

// Load views profile's hierarchy in f; it must have a node per arc of g.
func Load(f *artifact.File, g *graph.Graph) (*Hierarchy, error) {
	uf, u, df, d, vf, v := sections(g.Profile)
	h := &Hierarchy{metrics: new(metrics), taints: new(taints), customs: new(customs)}
	var err error
	for _, s := range []struct {
		dst  *[]uint32
		name string
	}{{&h.UpFirst, uf}, {&h.Up, u}, {&h.DnFirst, df}, {&h.Dn, d}, {&h.VaryFirst, vf}, {&h.Vary, v}} {
		if *s.dst, err = artifact.SectionView[uint32](f, s.name); err != nil {
			return nil, fmt.Errorf("ch: %w", err)
		}
	}
	arcs := int(g.NumArcs())
	if len(h.UpFirst) != arcs+1 || len(h.DnFirst) != arcs+1 ||
		4*int(h.UpFirst[arcs]) != len(h.Up) || 4*int(h.DnFirst[arcs]) != len(h.Dn) {
		return nil, fmt.Errorf("ch: %w: %s hierarchy does not match its %d arcs", artifact.ErrCorrupt, g.Profile, arcs)
	}
	if err := h.checkVary(); err != nil {
		return nil, fmt.Errorf("ch: %s hierarchy: %w: %w", g.Profile, artifact.ErrCorrupt, err)
	}
	return h, nil
}

// FromGraph contracts a profile's turn graph. An edge's distance is the
// length of the arc it enters, in centimetres. The arcs its conditions mark
// are named (Input.Marked).
func FromGraph(g *graph.Graph) Input {
	in := Input{First: g.Turns.First, Edges: make([]InputEdge, g.NumTurns())}
	if !g.Cond.Empty() {
		in.Marked, in.Turn = g.Marked, g.HasConditionalTurn
	}
	for i := range in.Edges {
		t := g.Turns.At(uint32(i))
		s, _ := g.ArcSegment(t.Head)
		in.Edges[i] = InputEdge{Head: t.Head, Weight: t.Weight, Dist: uint32(g.Net.SegLength[s]*100 + 0.5)}
	}
	return in
}
