package jsonscan

import (
	"strings"
	"testing"
)

// FuzzScan checks, for any input, that the Scanner never panics, that it accepts exactly what encoding/json
// accepts and reads the same values (sameAsReference), that Skip agrees with reading value by value, and that a
// syntax error is placed inside the input. Seeds are below and in testdata/fuzz/FuzzScan:
//
//	go test -run X -fuzz FuzzScan -fuzztime 1m ./pkg/jsonscan
func FuzzScan(f *testing.F) {
	for _, seed := range []string{
		``, ` `, `{}`, `[]`, `null`, `true`, `false`, `0`, `-0.5e-7`, `"x"`, `{"a":1}x`, `[1,]`, `{"a" 1}`,
		`{"coordinates":[[1.5,42.5],[1.6,42.6]],"profile":"car","alternatives":1,"include_steps":true}`,
		`{"origin":[1,1],"contours":[{"time_minutes":10},{"distance_km":2.5}],"radiuses":[null,25.5]}`,
		`["\"\\\/\b\f\n\r\t","\u0063ar","\ud83d\ude00","\ud83d","\ud83d\u0041","\u12G4"]`,
		`{"\u0063oordinates":1,"a/b~":2,"":3,"a":4,"a":5}`, "[\"\xff\xfe\",\"caf\xc3\xa9\"]", "\"a\x01\"",
		`[01]`, `[1.]`, `[-]`, `[1e999,-1e999,1e-400]`, `[tru]`, `[nul]`, `[fals]`, `{"a":[{"b":[{"c":null}]}]}`,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 { // encoding/json stops at 10,000 levels; the Scanner's tree here has no limit
			return
		}
		_, serr := document(data)
		if serr != nil && (serr.Offset < 0 || serr.Offset > len(data) || serr.Msg == "") {
			t.Fatalf("%q: error %+v outside the input or empty", data, serr)
		}
		s := New(data)
		s.Skip()
		skipped := !s.Failed() && s.AtEnd()
		deep := s.Failed() && strings.HasPrefix(s.Err().Msg, "nested deeper")
		if !deep && skipped != (serr == nil) {
			t.Fatalf("%q: Skip says valid=%v, reading says error %v", data, skipped, serr)
		}
		if !deep && serr == nil && s.Offset() != len(data) {
			t.Fatalf("%q: Skip stopped at %d", data, s.Offset())
		}
		if ok, why := sameAsReference(data); !ok {
			t.Fatalf("%q: %s", data, why)
		}
	})
}
