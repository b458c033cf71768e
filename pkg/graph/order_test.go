package graph

import "testing"

// On a 2×2 block the curve visits (0,0), (0,1), (1,1), (1,0) in that order,
// and consecutive cells of a 16×16 walk are always grid neighbours.
func TestHilbertIsAContinuousCurve(t *testing.T) {
	// Work on the low corner of the grid by scaling: cells of size 2^28.
	const cell = 1 << 28
	pos := map[uint64][2]uint32{}
	for x := uint32(0); x < 16; x++ {
		for y := uint32(0); y < 16; y++ {
			pos[hilbert(x*cell, y*cell)/(cell*cell)] = [2]uint32{x, y}
		}
	}
	if len(pos) != 256 {
		t.Fatalf("%d distinct indexes for 256 cells", len(pos))
	}
	for d := uint64(1); d < 256; d++ {
		a, b := pos[d-1], pos[d]
		dx, dy := int(a[0])-int(b[0]), int(a[1])-int(b[1])
		if dx*dx+dy*dy != 1 {
			t.Fatalf("step %d jumps from %v to %v", d, a, b)
		}
	}
}
