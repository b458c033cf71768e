package elevation

// seqReader reads the heights of a line's samples from a DEM. Samples 30 m
// apart fall dozens to a block, so instead of finding the tile, locking the
// cache shard and looking the block up for each one, as At does, it keeps
// the last tile and holds the last block pinned under its shard's read lock
// until the line moves to another block or release is called. It returns
// exactly what At returns. A reader belongs to one goroutine; its zero value
// reads nothing (use begin).
type seqReader struct {
	d      *DEM
	tile   tileRec
	inTile bool // tile is valid
	shard  *cacheShard
	block  int32
	posts  []uint16 // block's posts, valid while shard's read lock is held
	hits   uint64   // reads from the pinned block, added to the shard's count at release
}

// begin starts reading from d.
func (r *seqReader) begin(d *DEM) {
	r.release()
	*r = seqReader{d: d}
}

// end releases the block and forgets the DEM.
func (r *seqReader) end() {
	r.release()
	r.d = nil
}

// at is d.At(lon, lat).
func (r *seqReader) at(lon, lat float64) (float64, bool) {
	t := &r.tile
	// The general path handles points off this tile, on its north or east
	// edge (a neighbour may own them), and NaN.
	if !r.inTile || !(lat >= float64(t.lat) && lat < float64(t.lat+1) && lon >= float64(t.lon) && lon < float64(t.lon+1)) {
		r.release()
		h, ok := r.d.At(lon, lat)
		if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 {
			r.tile, r.inTile = r.d.tileAt(lon, lat)
		}
		return h, ok
	}
	fy := (float64(t.lat+1) - lat) * float64(t.nLat)
	fx := (lon - float64(t.lon)) * float64(t.nLon)
	row, wy := cellAlong(fy, t.nLat)
	col, wx := cellAlong(fx, t.nLon)
	br, bc := row/BlockCells, col/BlockCells
	b := t.firstBlock + br*t.bCols + bc
	if r.shard == nil || b != r.block {
		r.release()
		if !r.pin(b) {
			return r.d.At(lon, lat) // a miss: At decodes and caches the block
		}
	}
	_, cols := blockSpan(bc, t.nLon)
	k := int(row-br*BlockCells)*int(cols) + int(col-bc*BlockCells)
	q := r.posts
	r.hits++
	return blend([4]uint16{q[k], q[k+1], q[k+int(cols)], q[k+int(cols)+1]}, wx, wy)
}

// pin holds block b under its shard's read lock, if it is cached.
func (r *seqReader) pin(b int32) bool {
	c := r.d.cache
	s := &c.shards[int(b)%len(c.shards)]
	s.mu.RLock()
	i, ok := s.where[b]
	if !ok {
		s.mu.RUnlock()
		return false
	}
	sl := &s.slots[i]
	if sl.ref.Load() == 0 {
		sl.ref.Store(1)
	}
	r.shard, r.block, r.posts = s, b, sl.buf.posts
	return true
}

// release unpins the block, if any. It must be called before the goroutine
// touches the cache in any other way: a read lock must not be taken twice.
func (r *seqReader) release() {
	if r.shard == nil {
		return
	}
	r.shard.hits.Add(r.hits)
	r.shard.mu.RUnlock()
	r.shard, r.posts, r.hits = nil, nil, 0
}
