package polyline

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzDecode checks that Decode never panics and that what it accepts is stable: decoding, encoding and decoding
// again gives the same points.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{"", "??", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI",
		"_p~iF", "~~~~~~~~~~~~N??", "~~~~~~~~~~~~~??", " ", "\x7f"} {
		f.Add([]byte(seed), 5)
		f.Add([]byte(seed), 6)
	}
	f.Fuzz(func(t *testing.T, in []byte, precision int) {
		pts, err := Decode(in, precision)
		if err != nil {
			return
		}
		for _, p := range pts {
			// Re-encoding is exact only while value / 10^p * 10^p stays within a rounding of the integer: far
			// beyond any coordinate, float64 loses that, so the property is checked below 2^50.
			if math.Abs(p[0])*math.Pow10(precision) > 1<<50 || math.Abs(p[1])*math.Pow10(precision) > 1<<50 {
				return
			}
		}
		again, err := Decode(Append(nil, pts, precision), precision)
		if err != nil {
			t.Fatalf("re-decoding %v: %v", pts, err)
		}
		assertClose(t, again, pts, 0)
	})
}

// FuzzRoundTrip encodes arbitrary WGS84 paths and checks that decoding gives each point back within half a unit
// of the last kept digit.
func FuzzRoundTrip(f *testing.F) {
	f.Add(pathBytes(googleExample), uint8(5))
	f.Add(pathBytes([][2]float64{{180, 90}, {-180, -90}, {0, 0}}), uint8(6))
	f.Add([]byte{}, uint8(0))
	f.Fuzz(func(t *testing.T, raw []byte, p uint8) {
		precision := int(p) % (MaxPrecision + 1)
		pts := pathFromBytes(raw)
		got, err := Decode(Append(nil, pts, precision), precision)
		if err != nil {
			t.Fatalf("Decode(Append(%v, %d)): %v", pts, precision, err)
		}
		assertClose(t, got, pts, tolerance(precision))
	})
}

// pathFromBytes turns fuzz bytes into in-range points: each 8-byte word becomes one coordinate, folded into
// [-180, 180] or [-90, 90] so that every input is a valid WGS84 path.
func pathFromBytes(raw []byte) [][2]float64 {
	var pts [][2]float64
	for len(raw) >= 16 {
		lon := fold(binary.LittleEndian.Uint64(raw), 180)
		lat := fold(binary.LittleEndian.Uint64(raw[8:]), 90)
		pts = append(pts, [2]float64{lon, lat})
		raw = raw[16:]
	}
	return pts
}

func fold(bits uint64, limit float64) float64 {
	v := math.Float64frombits(bits)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return math.Mod(v, limit)
}

func pathBytes(pts [][2]float64) []byte {
	var out []byte
	for _, p := range pts {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(p[0]))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(p[1]))
	}
	return out
}
