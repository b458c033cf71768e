package jsonscan

import (
	"math"
	"strconv"
	"testing"
)

// TestReadNumber checks values, numbers too large for a float64 (valid JSON, not finite), and where reading
// stops.
func TestReadNumber(t *testing.T) {
	tests := []struct {
		doc    string
		finite bool
	}{
		{`0`, true}, {`-0`, true}, {`42.5`, true}, {`-1.5e-3`, true}, {`2E+10`, true}, {`1e308`, true},
		{`1e999`, false}, {`-1e999`, false}, {`123456789012345678901234567890`, true},
		{`0.000000000000000000000000000000001`, true},
	}
	for _, tt := range tests {
		s := New([]byte(`[` + tt.doc + `]`))
		s.Kind()
		s.Enter()
		s.Next(']', true)
		if s.Kind() != Number {
			t.Fatalf("%s: kind %v", tt.doc, s.Kind())
		}
		v, finite := s.ReadNumber()
		want, err := strconv.ParseFloat(tt.doc, 64)
		if finite != tt.finite || (finite && (err != nil || v != want || math.Signbit(v) != math.Signbit(want))) {
			t.Errorf("%s: %v, %v; want %v, %v", tt.doc, v, finite, want, tt.finite)
		}
		if s.Failed() || s.Offset() != len(tt.doc)+1 {
			t.Errorf("%s: stopped at %d (error %v), want %d", tt.doc, s.Offset(), s.Err(), len(tt.doc)+1)
		}
	}
}
