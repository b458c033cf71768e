package isochrone

import "testing"

// FuzzOutlines draws any mask (bytes as rows of 8 cells) and checks what
// the construction relies on: traced rings neither cross nor touch, the
// outlines bound exactly the inside area (the ring areas sum to what the
// cells enclose), and simplification at the safe tolerance keeps the
// rings apart, so the fallback can never fail.
func FuzzOutlines(f *testing.F) {
	f.Add([]byte{0xff, 0x81, 0xbd, 0xa5, 0xbd, 0x81, 0xff})
	f.Add([]byte{0xaa, 0x55, 0xaa, 0x55})
	f.Add([]byte{0x18, 0x3c, 0x7e, 0x3c, 0x18})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 64 {
			return
		}
		rows := make([]string, len(data))
		for i, b := range data {
			row := make([]byte, 8)
			for x := range 8 {
				row[x] = ".#"[b>>x&1]
			}
			rows[i] = string(row)
		}
		sc, w := maskOf(rows...)
		sc.trace(w)
		raw := ringSet{pts: sc.pts, at: sc.ringAt}
		var empty ringSet
		empty.reset()
		if !sc.valid(&raw, &empty) {
			t.Fatalf("traced rings meet:\n%v", rows)
		}
		var sum int64
		for k := range raw.len() {
			sum += area2(raw.ring(k))
		}
		if want := maskArea2(sc.mask, w); sum != want {
			t.Fatalf("rings enclose %d, cells %d:\n%v", sum, want, rows)
		}
		var simp ringSet
		simp.reset()
		for k := range raw.len() {
			simp.pts = sc.simplifyRing(raw.ring(k), 2*safeTolerance, simp.pts)
			simp.at = append(simp.at, int32(len(simp.pts)))
		}
		if !sc.valid(&simp, &empty) {
			t.Fatalf("rings simplified at %g cell meet:\n%v", safeTolerance, rows)
		}
	})
}

// maskArea2 is the area marching squares encloses for a mask, in the
// units of area2: per square, the inside part its case cuts off.
func maskArea2(mask []uint8, w int) int64 {
	// Eighths of a square (doubled units make a square 4, area2 doubles
	// again) for each case, joined saddles included.
	per := [16]int64{0, 1, 1, 4, 1, 6, 4, 7, 1, 4, 6, 7, 4, 7, 7, 8}
	var s int64
	for a := 0; a+w+1 < len(mask); a++ {
		if (a+1)%w == 0 {
			continue
		}
		k := mask[a] | mask[a+1]<<1 | mask[a+w+1]<<2 | mask[a+w]<<3
		s += per[k]
	}
	return s
}
