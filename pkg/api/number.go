package api

import "math"

// appendFixed writes exactly what appendNumber writes, for decimals up to
// 6, without strconv's shortest-float search: v rounded to the decimals is
// an integer k over 10^decimals, and for |k| < 10^15 (15 significant
// digits, which a float64 keeps exactly, so no shorter decimal maps to the
// same float) appendNumber's output is k's digits with the point put back
// and trailing zeros trimmed. A 100×100 matrix writes 20,000 numbers:
// strconv.AppendFloat was a quarter of the whole request.
func appendFixed(dst []byte, v float64, decimals int) []byte {
	if decimals < 0 || decimals >= len(pow10) {
		return appendNumber(dst, v, decimals)
	}
	r := math.Round(v * pow10[decimals])
	if !(math.Abs(r) < 1e15) { // also NaN and the infinities
		return appendNumber(dst, v, decimals)
	}
	k := int64(r)
	if k == 0 {
		return append(dst, '0') // also -0
	}
	if k < 0 {
		dst = append(dst, '-')
		k = -k
	}
	// Digits from the last, into a buffer: dividing by the constant 10 is a
	// multiplication, cheaper than strconv's general paths.
	var buf [24]byte
	i, u, point := len(buf), uint64(k), false
	for range decimals {
		if d := u % 10; point || d != 0 {
			i--
			buf[i] = byte('0' + d)
			point = true
		}
		u /= 10
	}
	if point {
		i--
		buf[i] = '.'
	}
	for {
		i--
		buf[i] = byte('0' + u%10)
		if u /= 10; u == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}

var pow10 = [...]float64{1, 10, 100, 1000, 1e4, 1e5, 1e6}
