package compare

import (
	"math"
	"slices"
	"strconv"
)

// Num is a float64 that encodes as JSON null when it is not finite
// (a point the new release cannot snap moved +Inf metres).
type Num float64

// MarshalJSON writes the number with up to 6 significant decimals, or null.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', 7, 64), nil
}

// UnmarshalJSON reads a number, or null as +Inf.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.Inf(1))
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*n = Num(f)
	return err
}

// Spread summarises a distribution: its extremes, 5th, 50th and 95th
// percentiles (nearest rank), over N values.
type Spread struct {
	N      int `json:"n"`
	Min    Num `json:"min"`
	P5     Num `json:"p5"`
	Median Num `json:"median"`
	P95    Num `json:"p95"`
	P99    Num `json:"p99"`
	Max    Num `json:"max"`
}

// spreadOf summarises v (which it sorts); the zero Spread when v is empty.
func spreadOf(v []float64) Spread {
	if len(v) == 0 {
		return Spread{}
	}
	slices.Sort(v)
	return Spread{N: len(v), Min: Num(v[0]), P5: Num(quantile(v, 0.05)), Median: Num(quantile(v, 0.5)),
		P95: Num(quantile(v, 0.95)), P99: Num(quantile(v, 0.99)), Max: Num(v[len(v)-1])}
}

// quantile is the nearest-rank q-quantile of sorted v.
func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Differences smaller than these are not changes a user could notice, and
// ratios between tiny values mean nothing: a 3 m route becoming 6 m is not
// "twice as long". Ratios divide values floored at these.
const (
	floorSeconds = 1.0
	floorMetres  = 1.0
)

// ratio is new/old with both floored at floor.
func ratio(old, new, floor float64) float64 {
	return max(new, floor) / max(old, floor)
}

// severity orders changes: how far a ratio is from 1 either way, so that
// halving a route's time weighs as much as doubling it.
func severity(r float64) float64 { return math.Abs(math.Log(r)) }
