package api

import (
	"strconv"
	"testing"

	"github.com/mapsco/maps/pkg/internal/benchcpu"
)

func BenchmarkDecodeDirections(b *testing.B) {
	for _, n := range []int{2, 50} {
		body := []byte(`{"coordinates":` + coordinateArray(n) + `,"profile":"car","alternatives":1,"include_steps":true}`)
		b.Run(strconv.Itoa(n)+"-waypoints", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			defer benchcpu.Report(b)()
			for b.Loop() {
				if _, inv := DecodeDirections(body); inv != nil {
					b.Fatal(inv)
				}
			}
		})
	}
}

func BenchmarkDecodeDirectionsInvalid(b *testing.B) {
	body := []byte(`{"coordinates":[[1,95],[200,1]],"profile":"x","alternatives":9}`)
	b.ReportAllocs()
	defer benchcpu.Report(b)()
	for b.Loop() {
		if _, inv := DecodeDirections(body); inv == nil {
			b.Fatal("accepted")
		}
	}
}

func BenchmarkDecodeElevation(b *testing.B) {
	body := []byte(`{"coordinates":` + coordinateArray(MaxElevationCoordinates) + `}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	defer benchcpu.Report(b)()
	for b.Loop() {
		if _, inv := DecodeElevation(body); inv != nil {
			b.Fatal(inv)
		}
	}
}

// TestDecodeDirectionsAllocations pins the hot path: a valid request costs one allocation, its coordinates.
func TestDecodeDirectionsAllocations(t *testing.T) {
	body := []byte(`{"coordinates":` + coordinateArray(50) + `,"profile":"truck","geometry_format":"geojson"}`)
	if n := testing.AllocsPerRun(100, func() { DecodeDirections(body) }); n != 1 {
		t.Errorf("DecodeDirections allocated %.0f times, want 1", n)
	}
}
