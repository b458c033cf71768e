package api

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAppendFixedEqualsAppendNumber compares the two writers on the
// values a matrix writes (whole milliseconds and centimetres), on halves at
// every decimal (where rounding could differ), and on random and extreme
// values.
func TestAppendFixedEqualsAppendNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.0005, 0.0015,
		1e-7, -1e-7, 123456.789, 999999.9999, 1e14, 1e15, 1e16, 1e300, -1e300, math.MaxFloat64,
		math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1)}
	for range 200000 {
		values = append(values,
			float64(rng.Uint32())/1000,    // durations from milliseconds
			float64(rng.Int64N(1e12))/100, // distances from centimetres
			(rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(20)-6)),
			float64(rng.IntN(1e7))/1e6+0.5e-6, // halves at 6 decimals
			float64(rng.IntN(1e4))/10+0.05,    // halves at 1 decimal
		)
	}
	for _, v := range values {
		for d := range 8 {
			want := string(appendNumber(nil, v, d))
			if got := string(appendFixed(nil, v, d)); got != want {
				t.Fatalf("%v with %d decimals: %q, appendNumber %q", v, d, got, want)
			}
		}
	}
}

// BenchmarkAppendGridNumbers writes a 100×100 matrix's 20,000 numbers
// both ways.
func BenchmarkAppendGridNumbers(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	durations, distances := make([]float64, 10000), make([]float64, 10000)
	for i := range durations {
		durations[i] = float64(rng.IntN(3_600_000)) / 1000
		distances[i] = float64(rng.IntN(5_000_000)) / 100
	}
	for _, w := range []struct {
		name string
		fn   func([]byte, float64, int) []byte
	}{{"AppendFloat", appendNumber}, {"fixed", appendFixed}} {
		b.Run(w.name, func(b *testing.B) {
			buf := make([]byte, 0, 256<<10)
			for b.Loop() {
				buf = buf[:0]
				for i := range durations {
					buf = w.fn(buf, durations[i], 3)
					buf = w.fn(buf, distances[i], 1)
				}
			}
		})
	}
}
