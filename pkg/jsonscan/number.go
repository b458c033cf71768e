package jsonscan

import (
	"math"
	"strconv"
)

// JSON numbers: the RFC 8259 grammar, checked in place, and the value as a float64.

// ReadNumber consumes the number Kind has just reported and returns its value. finite is false when the number
// is syntactically valid but does not fit a float64 (1e999): JSON has no NaN or Inf, but it has exponents. On a
// syntax error ("01", "1.", "-") it records the error and returns 0, false.
func (s *Scanner) ReadNumber() (v float64, finite bool) {
	start := s.pos
	end, ok := numberEnd(s.data, start)
	if !ok {
		s.fail(end, "malformed number")
		return 0, false
	}
	s.pos = end
	// The conversion does not allocate: strconv copies the string only into its error values.
	v, err := strconv.ParseFloat(string(s.data[start:end]), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// numberEnd follows the RFC 8259 number grammar from i; it returns the offset after the number, or the offset
// of the first byte that breaks the grammar.
func numberEnd(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digitsEnd(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digitsEnd(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
