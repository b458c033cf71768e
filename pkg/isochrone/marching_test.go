package isochrone

import "testing"

// maskOf draws a mask as text, top row first ('#' inside), with a one
// cell empty border added all round; it returns the scratch ready to
// trace and the grid width.
func maskOf(rows ...string) (*scratch, int) {
	h, w := len(rows)+2, len(rows[0])+2
	sc := &scratch{mask: make([]uint8, w*h)}
	for r, row := range rows {
		y := h - 2 - r // text runs north to south
		for x, ch := range row {
			if ch == '#' {
				sc.mask[y*w+x+1] = 1
			}
		}
	}
	sc.win = rect{0, 0, w, h}
	return sc, w
}

type traced struct {
	area2    int64
	in, out  int32
	vertices int
}

func traceAll(sc *scratch, w int) []traced {
	sc.trace(w)
	var out []traced
	for k := 0; k+1 < len(sc.ringAt); k++ {
		r := sc.pts[sc.ringAt[k]:sc.ringAt[k+1]]
		out = append(out, traced{area2(r), sc.ringIn[k], sc.ringOut[k], len(r)})
	}
	return out
}

func TestTraceShapes(t *testing.T) {
	cases := []struct {
		name  string
		rows  []string
		areas []int64 // twice the ring areas in doubled units (8 per cell), as traced
	}{
		{"one cell", []string{"#"}, []int64{4}},
		{"square", []string{"##", "##"}, []int64{28}},
		{"ring", []string{"###", "#.#", "###"}, []int64{68, -4}},
		{"saddle joins", []string{"#.", ".#"}, []int64{12}},
		{"saddle hole", []string{"###.", "#.#.", "##.#", "..##"}, []int64{92, -4, -4}},
		{"two islands", []string{"#..#"}, []int64{4, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, w := maskOf(c.rows...)
			rings := traceAll(sc, w)
			if len(rings) != len(c.areas) {
				t.Fatalf("%d rings, want %d: %+v", len(rings), len(c.areas), rings)
			}
			for i, r := range rings {
				if r.area2 != c.areas[i] {
					t.Errorf("ring %d: area2 %d, want %d", i, r.area2, c.areas[i])
				}
				if sc.mask[r.in] != 1 || sc.mask[r.out] != 0 {
					t.Errorf("ring %d: in cell %d (mask %d), out cell %d (mask %d)", i, r.in, sc.mask[r.in], r.out, sc.mask[r.out])
				}
			}
			for i, n := range sc.next {
				if n != noEdge {
					t.Fatalf("next[%d] left set", i)
				}
			}
		})
	}
}
