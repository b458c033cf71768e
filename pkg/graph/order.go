package graph

// hilbert returns the index of (x, y) on a Hilbert curve over the full
// 2^32 × 2^32 grid. Numbering nodes along it keeps neighbours close in
// memory, which is what a search touching one region of the map wants.
func hilbert(x, y uint32) uint64 {
	const n = 1 << 32
	var d uint64
	for s := uint64(n / 2); s > 0; s /= 2 {
		var rx, ry uint64
		if uint64(x)&s != 0 {
			rx = 1
		}
		if uint64(y)&s != 0 {
			ry = 1
		}
		d += s * s * ((3 * rx) ^ ry)
		if ry == 0 { // rotate the quadrant so the curve stays continuous
			if rx == 1 {
				x = uint32(n - 1 - uint64(x))
				y = uint32(n - 1 - uint64(y))
			}
			x, y = y, x
		}
	}
	return d
}

// HilbertKey maps a fixed-point coordinate (1e-7°) onto the curve. Package
// snap orders its spatial index along it too.
func HilbertKey(lon, lat int32) uint64 {
	return hilbert(uint32(int64(lon)+1800000000), uint32(int64(lat)+900000000))
}
