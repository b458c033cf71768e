package jsonscan

import (
	"strings"
	"testing"
)

// TestSyntaxErrors checks where and why each malformed document is refused, and that encoding/json refuses it
// too. Offsets count bytes from 0; an early end is reported at the document's length.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		doc    string
		offset int
		msg    string
	}{
		{``, 0, "unexpected end of input, expecting a value"},
		{" \t\r\n", 4, "unexpected end of input, expecting a value"},
		{`{`, 1, "unexpected end of input, expecting '}'"},
		{`[1,`, 3, "unexpected end of input, expecting a value"},
		{`[1,]`, 3, "unexpected character ']', expecting a value"},
		{`[1 2]`, 3, "unexpected character '2', expecting ',' or ']'"},
		{`{"a" 1}`, 5, "expecting ':' after a member name"},
		{`{1:2}`, 1, "expecting a member name in double quotes"},
		{`{"a":1,}`, 7, "expecting a member name in double quotes"},
		{`{"a":1]`, 6, "unexpected character ']', expecting ',' or '}'"},
		{`{"a":1}x`, 7, "unexpected data after the value"},
		{`01`, 1, "unexpected data after the value"},
		{`1.`, 2, "malformed number"},
		{`1.e5`, 2, "malformed number"},
		{`-`, 1, "malformed number"},
		{`-x`, 1, "malformed number"},
		{`1e`, 2, "malformed number"},
		{`1e+`, 3, "malformed number"},
		{`+1`, 0, "unexpected character '+', expecting a value"},
		{`tru`, 0, "invalid literal, expecting true"},
		{`fals`, 0, "invalid literal, expecting false"},
		{`[nul]`, 1, "invalid literal, expecting null"},
		{`"\x"`, 1, `invalid escape in string`},
		{`"ab\u12G4"`, 3, `invalid escape in string`},
		{`"\u123"`, 1, `invalid escape in string`},
		{"\"a\x01\"", 2, "control character byte 0x1 in string"},
		{`"abc`, 4, "unexpected end of input inside a string"},
		{`{"abc`, 5, "unexpected end of input inside a string"},
		{"\xff", 0, "unexpected byte 0xff, expecting a value"},
		{`[1,{"a":[true,nil]}]`, 14, "invalid literal, expecting null"},
	}
	for _, tt := range tests {
		_, err := document([]byte(tt.doc))
		if err == nil || err.Offset != tt.offset || err.Msg != tt.msg {
			t.Errorf("%q: error %+v, want offset %d, %q", tt.doc, err, tt.offset, tt.msg)
		}
		if ok, why := sameAsReference([]byte(tt.doc)); !ok {
			t.Errorf("%q: %s", tt.doc, why)
		}
	}
}

// TestSyntaxErrorText checks the message a caller shows: where, then what.
func TestSyntaxErrorText(t *testing.T) {
	s := New([]byte(`[1,]`))
	s.Skip()
	if got, want := s.Err().Error(), "malformed JSON at byte 3: unexpected character ']', expecting a value"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if fresh := New([]byte(`[]`)); fresh.Err() != nil {
		t.Errorf("fresh Scanner has error %v", fresh.Err())
	}
}

// TestAgreesWithEncodingJSON reads valid documents, awkward ones included, and compares every value with
// encoding/json's.
func TestAgreesWithEncodingJSON(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `0`, `-0`, `" "`, `null`, `true`, ` false `,
		`{"coordinates":[[1.5,42.5],[-0.25,1e2]],"profile":"car","alternatives":1,"include_steps":true}`,
		`[0,-1,1.5,-1.5e-3,2E+10,1e999,-1e999,1e-400,123456789012345678901234567890]`,
		`{"a":1,"a":2,"b":{"a":[{}]}}`,
		`["\"\\\/\b\f\n\r\t","\u0063ar","\u00e9\u20AC","\ud83d\ude00","\ud83d","\ude00x","\ud83d\u0041"]`,
		`{"\u0063oordinates":1,"a\"b":2,"":3}`,
		"[\"\xff\xfe\",\"caf\xc3\xa9\",\"\xed\xa0\x80\"]",
		"{\"\xff\":1,\"\xfe\":2}",
		" \t\r\n[ 1 , [ ] , { } , { \"a\" : null } ]\n",
		strings.Repeat("[", 100) + strings.Repeat("]", 100),
	}
	for _, doc := range docs {
		if _, err := document([]byte(doc)); err != nil {
			t.Errorf("%q refused: %v", doc, err)
		}
		if ok, why := sameAsReference([]byte(doc)); !ok {
			t.Errorf("%q: %s", doc, why)
		}
	}
}

// TestSticky checks that after the first syntax error every call returns zero values and the error stays the
// first one, so that a decoder's loops end and the cause is reported, not its consequences.
func TestSticky(t *testing.T) {
	s := New([]byte(`[1,x,"a",{"b":2}]`))
	if s.Kind() != Array {
		t.Fatal("not an array")
	}
	s.Enter()
	items := 0
	for first := true; s.Next(']', first); first = false {
		s.Skip()
		items++
	}
	if items != 2 {
		t.Errorf("the loop read %d items, want 2 (1, then x fails)", items)
	}
	s.Fail("later")
	if s.Kind() != Invalid || s.Next(']', false) || s.MemberName() != nil || !s.Failed() {
		t.Error("calls after the error did not return zero values")
	}
	if err := s.Err(); err == nil || err.Offset != 3 || err.Msg != "unexpected character 'x', expecting a value" {
		t.Errorf("error %+v, want the first one, at byte 3", err)
	}
}

// TestMaxDepth checks that Skip reads values nested MaxDepth levels and refuses one level more, at the bracket
// that goes too deep, in arrays and objects alike.
func TestMaxDepth(t *testing.T) {
	for _, open := range []string{`[`, `{"a":`} {
		closer := map[string]string{`[`: `]`, `{"a":`: `}`}[open]
		for _, levels := range []int{MaxDepth, MaxDepth + 1} {
			doc := strings.Repeat(open, levels) + `1` + strings.Repeat(closer, levels)
			s := New([]byte(doc))
			s.Skip()
			err := s.Err()
			if levels <= MaxDepth {
				if err != nil || !s.AtEnd() {
					t.Errorf("%d levels of %s: %v", levels, open, err)
				}
				continue
			}
			if wantAt := MaxDepth * len(open); err == nil || err.Offset != wantAt || err.Msg != "nested deeper than 512 levels" {
				t.Errorf("%d levels of %s: error %+v, want one at byte %d", levels, open, err, wantAt)
			}
		}
	}
}

// TestDepthCountsFromSkip checks that the levels a decoder walks itself do not count against MaxDepth.
func TestDepthCountsFromSkip(t *testing.T) {
	s := New([]byte(`[[` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `]]`))
	for range 2 {
		if s.Kind() != Array {
			t.Fatal("not an array")
		}
		s.Enter()
		if !s.Next(']', true) {
			t.Fatal("empty array")
		}
	}
	s.Skip()
	for range 2 { // close the two arrays walked above
		if s.Next(']', false) {
			t.Fatalf("more elements at %d", s.Offset())
		}
	}
	if !s.AtEnd() || s.Failed() {
		t.Errorf("walk failed: %v", s.Err())
	}
}

// TestKind checks the kind of each value's first byte and the names messages use for them.
func TestKind(t *testing.T) {
	tests := []struct {
		doc  string
		kind Kind
		name string
	}{
		{` {}`, Object, "object"}, {`[`, Array, "array"}, {`"`, String, "string"}, {`-1`, Number, "number"},
		{`7`, Number, "number"}, {`true`, Bool, "boolean"}, {`f`, Bool, "boolean"}, {`null`, Null, "null"},
		{`}`, Invalid, "invalid value"}, {``, Invalid, "invalid value"},
	}
	for _, tt := range tests {
		s := New([]byte(tt.doc))
		if k := s.Kind(); k != tt.kind || k.String() != tt.name {
			t.Errorf("%q: kind %v (%d), want %s", tt.doc, k, k, tt.name)
		}
		if tt.kind != Invalid && s.Offset() != len(tt.doc)-len(strings.TrimLeft(tt.doc, " ")) {
			t.Errorf("%q: Kind consumed the value (offset %d)", tt.doc, s.Offset())
		}
	}
}

// TestReadBool checks both literals and that reading stops after them.
func TestReadBool(t *testing.T) {
	s := New([]byte(`[true,false]`))
	s.Kind()
	s.Enter()
	var got []bool
	for first := true; s.Next(']', first); first = false {
		if s.Kind() != Bool {
			t.Fatalf("kind %v at %d", s.Kind(), s.Offset())
		}
		got = append(got, s.ReadBool())
	}
	if len(got) != 2 || !got[0] || got[1] || !s.AtEnd() || s.Failed() {
		t.Errorf("read %v, error %v", got, s.Err())
	}
}
