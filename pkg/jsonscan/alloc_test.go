package jsonscan

import (
	"strconv"
	"strings"
	"testing"
)

// coordinates returns an object holding n [longitude, latitude] pairs and a few other members, like a request.
func coordinates(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"coordinates":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("[" + strconv.FormatFloat(1.5+float64(i)/1e4, 'f', 6, 64) + ",42.512345]")
	}
	b.WriteString(`],"profile":"car","include_steps":true,"radiuses":[null,25.5],"unknown":{"a":[1,"x"]}}`)
	return []byte(b.String())
}

// walk reads doc the way a schema-directed decoder does, building a pointer for each value, and returns the
// sum of the coordinates and the pointer of the last one too large for a float64, if any.
func walk(doc []byte) (sum float64, tooLarge Pointer, ok bool) {
	s := New(doc)
	var root Pointer
	s.Kind()
	s.Enter()
	for first := true; s.Next('}', first); first = false {
		if string(s.MemberName()) != "coordinates" {
			s.Skip()
			continue
		}
		p := root.Member("coordinates")
		s.Kind()
		s.Enter()
		for i, first := 0, true; s.Next(']', first); i, first = i+1, false {
			at := p.Index(i)
			s.Kind()
			s.Enter()
			for j, first := 0, true; s.Next(']', first); j, first = j+1, false {
				v, finite := s.ReadNumber()
				if !finite {
					tooLarge = at.Index(j)
				}
				sum += v
			}
		}
	}
	return sum, tooLarge, !s.Failed() && s.AtEnd()
}

// TestWalkAllocations pins the point of the package: reading a valid document without escapes, pointers
// included, allocates nothing.
func TestWalkAllocations(t *testing.T) {
	doc := coordinates(50)
	if _, _, ok := walk(doc); !ok {
		t.Fatal("walk failed")
	}
	if n := testing.AllocsPerRun(100, func() { walk(doc) }); n != 0 {
		t.Errorf("walk allocated %.0f times, want 0", n)
	}
}

func BenchmarkWalk(b *testing.B) {
	for _, n := range []int{2, 50, 1000} {
		doc := coordinates(n)
		b.Run(strconv.Itoa(n)+"-coordinates", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, _, ok := walk(doc); !ok {
					b.Fatal("walk failed")
				}
			}
		})
	}
}

func BenchmarkSkip(b *testing.B) {
	doc := coordinates(1000)
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		s := New(doc)
		if s.Skip(); s.Failed() {
			b.Fatal(s.Err())
		}
	}
}
