package elevation

import "math"

// At returns the height in metres at (lon, lat), interpolated bilinearly
// between the four surrounding posts, as GDAL does for a raster whose posts
// (pixel centres) lie on multiples of the post spacing with the tile's corner
// posts on whole degrees. ok is false outside coverage (no tile there, or the
// nearest post has no data) and when the block holding the posts is corrupt.
// A cache hit allocates nothing.
func (d *DEM) At(lon, lat float64) (h float64, ok bool) {
	if !(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) { // also rejects NaN
		return 0, false
	}
	t, ok := d.tileAt(lon, lat)
	if !ok {
		return 0, false
	}
	fy := (float64(t.lat+1) - lat) * float64(t.nLat) // rows from the north edge
	fx := (lon - float64(t.lon)) * float64(t.nLon)
	r, wy := cellAlong(fy, t.nLat)
	c, wx := cellAlong(fx, t.nLon)
	br, bc := r/BlockCells, c/BlockCells
	_, rows := blockSpan(br, t.nLat)
	_, cols := blockSpan(bc, t.nLon)
	b := t.firstBlock + br*t.bCols + bc
	p, err := d.cache.cell(d, b, int(rows), int(cols), int(r-br*BlockCells), int(c-bc*BlockCells))
	if err != nil {
		return 0, false
	}
	return blend(p, wx, wy)
}

// tileAt finds the tile holding (lon, lat). A point on a whole degree lies on
// the shared edge of two tiles, which hold the same posts there; if the tile
// to the north or east is missing, the one to the south or west answers.
func (d *DEM) tileAt(lon, lat float64) (tileRec, bool) {
	la, lo := math.Floor(lat), math.Floor(lon)
	if t, ok := d.findTile(int32(la), int32(lo)); ok && la < 90 && lo < 180 {
		return t, true
	}
	for _, c := range [3][2]float64{{la - 1, lo}, {la, lo - 1}, {la - 1, lo - 1}} {
		if (c[0] != la && la != lat) || (c[1] != lo && lo != lon) {
			continue
		}
		if t, ok := d.findTile(int32(c[0]), int32(c[1])); ok {
			return t, true
		}
	}
	return tileRec{}, false
}

// cellAlong splits a fractional post coordinate into a cell index in
// [0, n-1] and the weight of the cell's far post.
func cellAlong(f float64, n int32) (int32, float64) {
	i := int32(f)
	if i >= n {
		i = n - 1
	}
	if i < 0 {
		i = 0
	}
	return i, f - float64(i)
}

// blend interpolates posts NW, NE, SW, SE with weights wx (east) and wy
// (south). Posts without data drop out and the others are reweighted, unless
// the nearest post has no data: then the point is outside coverage.
func blend(p [4]uint16, wx, wy float64) (float64, bool) {
	w := [4]float64{(1 - wx) * (1 - wy), wx * (1 - wy), (1 - wx) * wy, wx * wy}
	nearest := 0
	if wx >= 0.5 {
		nearest++
	}
	if wy >= 0.5 {
		nearest += 2
	}
	if p[nearest] == NoData {
		return 0, false
	}
	var sum, wsum float64
	for i, v := range p {
		if v != NoData {
			sum += w[i] * decodeHeight(v)
			wsum += w[i]
		}
	}
	return sum / wsum, true
}

// AtMany appends the heights of pts (each [lon, lat]) to dst and their
// coverage flags to ok, in input order, and returns both slices.
func (d *DEM) AtMany(dst []float64, ok []bool, pts [][2]float64) ([]float64, []bool) {
	for _, p := range pts {
		h, in := d.At(p[0], p[1])
		dst = append(dst, h)
		ok = append(ok, in)
	}
	return dst, ok
}
