package polyline

import (
	"errors"
	"fmt"
	"math"
)

// Errors returned by Decode, wrapped with the byte offset where decoding failed; test with errors.Is.
var (
	ErrPrecision = errors.New("polyline: unsupported precision")
	ErrCharacter = errors.New("polyline: character outside '?'..'~'")
	ErrTruncated = errors.New("polyline: input ends inside a value or after a latitude")
	ErrOverflow  = errors.New("polyline: value overflows 64 bits")
)

// Decode decodes an encoded polyline at the given precision into [lon, lat] points. It returns an error, never a
// panic, for a character outside the alphabet, a value cut short, a latitude without its longitude, or a value
// or running sum that does not fit in 64 bits. An empty input decodes to no points.
func Decode(s []byte, precision int) ([][2]float64, error) {
	factor := scale(precision)
	if factor == 0 {
		return nil, fmt.Errorf("%w: %d (want 0..%d)", ErrPrecision, precision, MaxPrecision)
	}
	// Every point takes at least two bytes, so this is an upper bound that avoids regrowing on long paths.
	pts := make([][2]float64, 0, len(s)/2)
	var lat, lon int64
	for pos := 0; pos < len(s); {
		dLat, next, err := readValue(s, pos)
		if err != nil {
			return nil, err
		}
		if next == len(s) {
			return nil, fmt.Errorf("%w: latitude at byte %d has no longitude", ErrTruncated, pos)
		}
		dLon, after, err := readValue(s, next)
		if err != nil {
			return nil, err
		}
		if lat, err = checkedAdd(lat, dLat, pos); err != nil {
			return nil, err
		}
		if lon, err = checkedAdd(lon, dLon, next); err != nil {
			return nil, err
		}
		pts = append(pts, [2]float64{float64(lon) / factor, float64(lat) / factor})
		pos = after
	}
	return pts, nil
}

// readValue reads one zigzag-encoded value starting at pos and returns it with the offset just after it.
func readValue(s []byte, pos int) (int64, int, error) {
	start := pos
	var u uint64
	for shift := uint(0); pos < len(s); shift += 5 {
		c := s[pos]
		if c < 63 || c > 126 {
			return 0, 0, fmt.Errorf("%w: byte %d is %#02x", ErrCharacter, pos, c)
		}
		group := uint64(c-63) & 0x1f
		// 12 groups carry 60 bits, so a 13th may only hold the top 4 bits of a 64-bit value.
		if shift > 60 || (shift == 60 && group > 0xf) {
			return 0, 0, fmt.Errorf("%w: at byte %d", ErrOverflow, pos)
		}
		u |= group << shift
		pos++
		if c-63 < 0x20 {
			return int64(u>>1) ^ -int64(u&1), pos, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: value at byte %d is cut short", ErrTruncated, start)
}

// checkedAdd adds a delta to a running coordinate, refusing to wrap around.
func checkedAdd(sum, delta int64, pos int) (int64, error) {
	if (delta > 0 && sum > math.MaxInt64-delta) || (delta < 0 && sum < math.MinInt64-delta) {
		return 0, fmt.Errorf("%w: coordinate sum at byte %d", ErrOverflow, pos)
	}
	return sum + delta, nil
}
