package elevation

import (
	"fmt"

	"github.com/golang/snappy"
)

// A block on disk is snappy(low ‖ high): for each post in row-major order,
// the difference (mod 2^16) between the post and its left neighbour, or, in
// the first column, its upper neighbour, zigzag-encoded (0, -1, 1, -2 → 0, 1,
// 2, 3), then split into the plane of low bytes followed by the plane of high
// bytes. Terrain changes slowly from post to post, so the high plane is
// almost all zeros, which snappy squeezes to nearly nothing; snappy alone
// finds few matches in raw heights.

// encodeBlock appends the compressed block of rows×cols posts read from v
// (row stride stride, starting at v[0]) to dst. raw is scratch space.
func encodeBlock(dst, raw []byte, v []uint16, stride, rows, cols int) (out, scratch []byte) {
	n := rows * cols
	if cap(raw) < 2*n {
		raw = make([]byte, 2*n)
	}
	raw = raw[:2*n]
	i := 0
	for r := 0; r < rows; r++ {
		row := v[r*stride : r*stride+cols]
		prev := uint16(0)
		if r > 0 {
			prev = v[(r-1)*stride]
		}
		for _, x := range row {
			z := zigzag(x - prev)
			raw[i], raw[n+i] = byte(z), byte(z>>8)
			prev = x
			i++
		}
	}
	m := snappy.MaxEncodedLen(len(raw))
	dst = growBytes(dst, m)
	enc := snappy.Encode(dst[len(dst):len(dst)+m], raw)
	return dst[:len(dst)+len(enc)], raw
}

// decodeBlock decompresses src into dst, which must hold exactly rows×cols
// posts. scratch must have room for 2×rows×cols bytes, so a decode allocates
// nothing. Any mismatch is ErrCorrupt: blocks come from a file that may be
// damaged, and a bad block must never crash the server.
func decodeBlock(dst []uint16, src, scratch []byte, rows, cols int) error {
	want := 2 * rows * cols
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return fmt.Errorf("%w: block length: %w", ErrCorrupt, err)
	}
	if n != want || len(scratch) < want || len(dst) < rows*cols {
		return fmt.Errorf("%w: block decodes to %d bytes, expected %d", ErrCorrupt, n, want)
	}
	raw, err := snappy.Decode(scratch[:want], src)
	if err != nil {
		return fmt.Errorf("%w: block: %w", ErrCorrupt, err)
	}
	if len(raw) != want {
		return fmt.Errorf("%w: block decodes to %d bytes, expected %d", ErrCorrupt, len(raw), want)
	}
	n = rows * cols
	lo, hi := raw[:n], raw[n:2*n]
	i := 0
	for r := 0; r < rows; r++ {
		prev := uint16(0)
		if r > 0 {
			prev = dst[(r-1)*cols]
		}
		for c := 0; c < cols; c++ {
			prev += unzigzag(uint16(lo[i]) | uint16(hi[i])<<8)
			dst[i] = prev
			i++
		}
	}
	return nil
}

// zigzag maps a difference taken mod 2^16, read as signed, to a small
// unsigned number; unzigzag reverses it.
func zigzag(d uint16) uint16   { return d<<1 ^ uint16(int16(d)>>15) }
func unzigzag(z uint16) uint16 { return z>>1 ^ -(z & 1) }

// growBytes makes sure b has room for n more bytes without changing its length.
func growBytes(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	nb := make([]byte, len(b), 2*cap(b)+n)
	copy(nb, b)
	return nb
}
