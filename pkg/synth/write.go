package synth

import (
	"context"
	"fmt"
	"io"
	"strconv"
)

// program is the header's writingprogram. It carries no version or date so
// that output stays byte-identical across builds.
const program = "mapc synth"

// writeCountry writes every tile's nodes, then the trunk nodes, then every
// tile's ways and the trunk ways, then every tile's relations: ids ascend
// within each kind because the plan hands out id ranges in that order.
func writeCountry(ctx context.Context, w io.Writer, srcs []*source, p *Plan) error {
	pw, err := NewPBFWriter(w, p.BBox, program)
	if err != nil {
		return err
	}
	for _, step := range []func(context.Context, *PBFWriter, []*source, *Plan) error{writeNodes, writeWays, writeRelations} {
		if err := step(ctx, pw, srcs, p); err != nil {
			return err
		}
	}
	return pw.Close()
}

func writeNodes(ctx context.Context, pw *PBFWriter, srcs []*source, p *Plan) error {
	for _, t := range p.Tiles {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := srcs[t.Source]
		for v := range s.numNodes() {
			err := pw.Node(t.NodeBase+int64(v)+1, s.coord[2*v]+t.DLon, s.coord[2*v+1]+t.DLat, s.nodeTags[int32(v)])
			if err != nil {
				return fmt.Errorf("tile %d: %w", t.Index, err)
			}
		}
	}
	for _, tr := range p.Trunks {
		for k := 0; k < len(tr.Via); k += 2 {
			if err := pw.Node(tr.NodeBase+int64(k/2)+1, tr.Via[k], tr.Via[k+1], nil); err != nil {
				return fmt.Errorf("trunk %d: %w", tr.Number, err)
			}
		}
	}
	return nil
}

func writeWays(ctx context.Context, pw *PBFWriter, srcs []*source, p *Plan) error {
	var refs []int64
	for _, t := range p.Tiles {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i, w := range srcs[t.Source].ways {
			refs = refs[:0]
			for _, v := range w.refs {
				refs = append(refs, t.NodeBase+int64(v)+1)
			}
			if err := pw.Way(t.WayBase+int64(i)+1, refs, w.tags); err != nil {
				return fmt.Errorf("tile %d: %w", t.Index, err)
			}
		}
	}
	base := p.Ways - int64(len(p.Trunks))
	for i, tr := range p.Trunks {
		refs = append(refs[:0], tr.From)
		for k := range len(tr.Via) / 2 {
			refs = append(refs, tr.NodeBase+int64(k)+1)
		}
		refs = append(refs, tr.To)
		if err := pw.Way(base+int64(i)+1, refs, trunkTags(tr.Number)); err != nil {
			return fmt.Errorf("trunk %d: %w", tr.Number, err)
		}
	}
	return nil
}

// trunkTags are a synthetic trunk road's tags, sorted by key. No oneway tag:
// the road is two-way.
func trunkTags(k int) []Tag {
	n := strconv.Itoa(k)
	return []Tag{{"highway", "trunk"}, {"name", "Synthetic trunk " + n}, {"ref", "ST-" + n}}
}

func writeRelations(ctx context.Context, pw *PBFWriter, srcs []*source, p *Plan) error {
	var members []Member
	for _, t := range p.Tiles {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i, r := range srcs[t.Source].rels {
			members = members[:0]
			for _, m := range r.members {
				base := t.NodeBase
				if m.typ == "w" {
					base = t.WayBase
				}
				members = append(members, Member{m.typ, base + int64(m.local) + 1, m.role})
			}
			if err := pw.Relation(t.RelBase+int64(i)+1, members, r.tags); err != nil {
				return fmt.Errorf("tile %d: %w", t.Index, err)
			}
		}
	}
	return nil
}
