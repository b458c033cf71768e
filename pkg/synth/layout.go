package synth

import (
	"fmt"
	"math"

	"github.com/mapsco/maps/pkg/geo"
)

const (
	cell       = int32(geo.Scale) // grid cell: 1° in 1e-7 degrees
	cellMargin = cell / 20        // 0.05°: gap kept when a copy cannot shift by whole degrees
	trunkStepM = 500.0            // spacing of a trunk road's nodes
	maxRows    = 160              // keeps the grid between latitudes -80° and 80°
	maxCols    = 340
)

// Tile is one copy of a source on the grid.
type Tile struct {
	Index, Source int
	Row, Col      int
	DLon, DLat    int32 // shift added to the source's coordinates, 1e-7 degrees
	// NodeBase, WayBase, RelBase are added to local indices (from 1) to give
	// the copy's ids.
	NodeBase, WayBase, RelBase int64
}

// Trunk is one synthetic trunk road between two neighbouring tiles.
type Trunk struct {
	Number   int   // K in "Synthetic trunk K", from 1
	From, To int64 // connector node ids in the two tiles
	Via      []int32
	NodeBase int64 // ids of Via nodes are NodeBase+1, …
}

// Plan is the layout of a synthetic country: where each tile goes, its id
// ranges, and the trunk roads. It is computed before anything is written.
type Plan struct {
	Tiles  []Tile
	Trunks []Trunk
	Cols   int
	// Totals over tiles and trunk roads.
	Nodes, Ways, Relations int64
	BBox                   [4]int32 // min lon, min lat, max lon, max lat
}

// makePlan lays out n tiles of srcs (tile t copies srcs[t%len(srcs)]).
func makePlan(srcs []*source, n int) (*Plan, error) {
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	if n < 1 || rows > maxRows || cols > maxCols {
		return nil, fmt.Errorf("synth: %d tiles do not fit a grid of at most %d×%d 1° cells", n, maxRows, maxCols)
	}
	lon0 := -int32(cols/2) * cell
	// Centre the grid on 45°N while it fits below 80°N, then grow south.
	lat0 := min(45-int32(rows/2), 80-int32(rows)) * cell
	p := &Plan{Cols: cols, BBox: [4]int32{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32}}
	for t := range n {
		s := srcs[t%len(srcs)]
		tile := Tile{Index: t, Source: t % len(srcs), Row: t / cols, Col: t % cols,
			NodeBase: p.Nodes, WayBase: p.Ways, RelBase: p.Relations}
		var err error
		if tile.DLon, err = shift(s.bbox[0], s.bbox[2], lon0+int32(tile.Col)*cell); err != nil {
			return nil, fmt.Errorf("synth: %s: longitude %w", s.path, err)
		}
		if tile.DLat, err = shift(s.bbox[1], s.bbox[3], lat0+int32(tile.Row)*cell); err != nil {
			return nil, fmt.Errorf("synth: %s: latitude %w", s.path, err)
		}
		p.Tiles = append(p.Tiles, tile)
		p.Nodes += int64(s.numNodes())
		p.Ways += int64(len(s.ways))
		p.Relations += int64(len(s.rels))
		p.BBox = [4]int32{min(p.BBox[0], s.bbox[0]+tile.DLon), min(p.BBox[1], s.bbox[1]+tile.DLat),
			max(p.BBox[2], s.bbox[2]+tile.DLon), max(p.BBox[3], s.bbox[3]+tile.DLat)}
	}
	p.addTrunks(srcs)
	return p, nil
}

// shift returns what to add to a source spanning [lo, hi] so it lands in the
// cell starting at start: whole degrees when it fits one 1° cell already,
// else so that lo lands cellMargin inside the cell.
func shift(lo, hi, start int32) (int32, error) {
	if floorDiv(lo, cell) == floorDiv(hi, cell) {
		return start - floorDiv(lo, cell)*cell, nil
	}
	if hi-lo > cell-2*cellMargin {
		return 0, fmt.Errorf("span %.3f° is wider than a 1° cell", geo.Degrees(hi-lo))
	}
	return start + cellMargin - lo, nil
}

func floorDiv(a, b int32) int32 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// addTrunks joins each tile to its east and north neighbours, in tile order.
func (p *Plan) addTrunks(srcs []*source) {
	byPos := func(row, col int) *Tile {
		if t := row*p.Cols + col; col < p.Cols && t < len(p.Tiles) {
			return &p.Tiles[t]
		}
		return nil
	}
	for i := range p.Tiles {
		a := &p.Tiles[i]
		if b := byPos(a.Row, a.Col+1); b != nil {
			p.addTrunk(srcs, a, east, b, west)
		}
		if b := byPos(a.Row+1, a.Col); b != nil {
			p.addTrunk(srcs, a, north, b, south)
		}
	}
	for i := range p.Trunks {
		p.Trunks[i].NodeBase = p.Nodes
		p.Nodes += int64(len(p.Trunks[i].Via) / 2)
	}
	p.Ways += int64(len(p.Trunks))
}

// addTrunk plans a straight road from connector ea of tile a to connector eb
// of tile b, with evenly spaced intermediate nodes.
func (p *Plan) addTrunk(srcs []*source, a *Tile, ea int, b *Tile, eb int) {
	ax, ay := a.position(srcs, ea)
	bx, by := b.position(srcs, eb)
	d := geo.Distance(geo.Degrees(ax), geo.Degrees(ay), geo.Degrees(bx), geo.Degrees(by))
	steps := max(1, int(math.Ceil(d/trunkStepM)))
	tr := Trunk{Number: len(p.Trunks) + 1,
		From: a.NodeBase + int64(srcs[a.Source].ends[ea]) + 1,
		To:   b.NodeBase + int64(srcs[b.Source].ends[eb]) + 1}
	for k := 1; k < steps; k++ {
		f := float64(k) / float64(steps)
		tr.Via = append(tr.Via, ax+int32(math.Round(f*float64(bx-ax))), ay+int32(math.Round(f*float64(by-ay))))
	}
	p.Trunks = append(p.Trunks, tr)
}

// position returns where a connector of the tile's source lands.
func (t *Tile) position(srcs []*source, end int) (lon, lat int32) {
	s := srcs[t.Source]
	v := s.ends[end]
	return s.coord[2*v] + t.DLon, s.coord[2*v+1] + t.DLat
}
