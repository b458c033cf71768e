package api

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// Responses are written by appending to a byte slice rather than through
// encoding/json: the shapes are fixed, and a route answer is written many
// thousands of times a second, so reflection and per-field allocations would
// be most of its cost.

// appendNumber writes v with at most the given decimals, trailing zeros
// trimmed; non-finite values (which JSON cannot carry) are written as 0.
func appendNumber(dst []byte, v float64, decimals int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, '0')
	}
	p := math.Pow10(decimals)
	v = math.Round(v*p) / p
	if v == 0 {
		return append(dst, '0') // also turns -0 into 0
	}
	return strconv.AppendFloat(dst, v, 'f', -1, 64)
}

// appendString writes s as a JSON string, escaping what JSON requires and
// replacing invalid UTF-8 with U+FFFD.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\ufffd"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// appendKey writes "key": after an optional comma.
func appendKey(dst []byte, key string, comma bool) []byte {
	if comma {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

// appendSpeed writes an average speed in km/h, or null for a zero duration
// (spec: the field is emitted even when null).
func appendSpeed(dst []byte, distanceM, durationS float64) []byte {
	if durationS <= 0 {
		return append(dst, "null"...)
	}
	return appendNumber(dst, distanceM/durationS*3.6, 1)
}

// appendPositions writes [lon, lat] pairs as a GeoJSON position array with
// 6 decimals (about 10 cm), the precision of every coordinate we answer.
func appendPositions(dst []byte, pts [][2]float64) []byte {
	dst = append(dst, '[')
	for i, p := range pts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendPosition(dst, p[0], p[1])
	}
	return append(dst, ']')
}

// appendPosition writes one [lon, lat] with 6 decimals.
func appendPosition(dst []byte, lon, lat float64) []byte {
	dst = append(dst, '[')
	dst = appendNumber(dst, lon, 6)
	dst = append(dst, ',')
	dst = appendNumber(dst, lat, 6)
	return append(dst, ']')
}
