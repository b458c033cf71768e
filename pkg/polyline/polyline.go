// Package polyline encodes and decodes Google's encoded polyline format at any precision (6 for polyline6,
// the format of route geometries in our API; 5 for Google's original).
//
// Points are [lon, lat] (our API order); the format stores lat first — the package handles that.
//
// Each coordinate is scaled by 10^precision and rounded half away from zero; the first point is stored as is and
// every later one as the difference from the previous rounded point, so rounding errors never accumulate along a
// path. Each signed integer is zigzag-encoded (sign in the low bit) and written in 5-bit groups, least significant
// first, as bytes 63..126: 0x20 is added to every group but the last.
//
// The functions hold no state and are safe for concurrent use; an Encoder is one line's state, for one goroutine.
// Append never allocates when dst has room; Decode returns a fresh slice owned by the caller and never panics,
// whatever its input.
package polyline

import (
	"fmt"
	"math"
)

// MaxPrecision is the largest supported precision: 10^10 keeps every scaled longitude, and every difference of
// two, far inside int64, and is already finer than float64 resolution at ±180°.
const MaxPrecision = 10

// Append appends the encoding of pts to dst at the given precision and returns the extended slice.
//
// Coordinates must be finite and within ±2^53/10^precision (any WGS84 coordinate is); others encode to
// meaningless values. Append panics when precision is outside 0..MaxPrecision: that is a programming error.
func Append(dst []byte, pts [][2]float64, precision int) []byte {
	e := NewEncoder(precision)
	for _, p := range pts {
		dst = e.Append(dst, p)
	}
	return dst
}

// Encoder encodes a line one point at a time, for callers that walk a shape rather than hold it: the bytes it
// appends, point after point, are Append's for the whole line. The zero Encoder is not ready: use NewEncoder.
type Encoder struct {
	factor           float64
	prevLat, prevLon int64
}

// NewEncoder starts a line at the given precision; it panics when precision is outside 0..MaxPrecision.
func NewEncoder(precision int) Encoder {
	factor := scale(precision)
	if factor == 0 {
		panic(fmt.Sprintf("polyline: precision %d outside 0..%d", precision, MaxPrecision))
	}
	return Encoder{factor: factor}
}

// Append appends the encoding of the line's next point p ([lon, lat]) to dst.
func (e *Encoder) Append(dst []byte, p [2]float64) []byte {
	return e.AppendScaled(dst, round(p[1], e.factor), round(p[0], e.factor))
}

// AppendScaled appends the line's next point given as Append would make it of [lon, lat]: lat and lon times
// 10^precision, rounded half away from zero. A caller that holds fixed-point coordinates can so skip the float
// arithmetic.
func (e *Encoder) AppendScaled(dst []byte, lat, lon int64) []byte {
	dst = appendValue(dst, lat-e.prevLat)
	dst = appendValue(dst, lon-e.prevLon)
	e.prevLat, e.prevLon = lat, lon
	return dst
}

// round scales v and rounds half away from zero (math.Round's rule), which is what the spec of our API asks for.
func round(v, factor float64) int64 {
	return int64(math.Round(v * factor))
}

// appendValue writes one zigzag-encoded signed integer as 5-bit groups.
func appendValue(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x20 {
		dst = append(dst, byte(0x20|u&0x1f)+63)
		u >>= 5
	}
	return append(dst, byte(u)+63)
}

// scale returns 10^precision, or 0 when precision is unsupported.
func scale(precision int) float64 {
	if precision < 0 || precision > MaxPrecision {
		return 0
	}
	return math.Pow10(precision)
}
