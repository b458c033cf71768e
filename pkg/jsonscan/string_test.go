package jsonscan

import (
	"encoding/json"
	"testing"
	"unsafe"
)

func TestUnescape(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`plain`, "plain"},
		{`a\"b\\c\/d\b\f\n\r\t`, "a\"b\\c/d\b\f\n\r\t"},
		{`\u0063ar`, "car"},
		{`\u00e9\u20AC`, "é€"},
		{`\ud83d\ude00`, "😀"},
		{`\ud83d`, "\uFFFD"},
		{`\ude00x`, "\uFFFDx"},
		{`\ud83d\u0041`, "\uFFFDA"},
		{`\ud83d\ud83d\ude00`, "\uFFFD😀"},
	}
	for _, tt := range tests {
		var want string
		if err := json.Unmarshal([]byte(`"`+tt.raw+`"`), &want); err != nil || want != tt.want {
			t.Fatalf("test table disagrees with encoding/json on %q: %q, %v", tt.raw, want, err)
		}
		if got := string(Unescape(nil, []byte(tt.raw))); got != tt.want {
			t.Errorf("Unescape(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// TestStringsInPlace checks that a string without escapes is a slice of the input (no copy), and that one with
// escapes is decoded into the scratch buffer, which the next escaped string reuses.
func TestStringsInPlace(t *testing.T) {
	data := []byte(`{"plain":"car","e\u0073caped":"\u0063ar","next":"a\tb"}`)
	s := New(data)
	s.Kind()
	s.Enter()
	var names, values []string
	var aliases []bool
	for first := true; s.Next('}', first); first = false {
		name := s.MemberName()
		names = append(names, string(name))
		if s.Kind() != String {
			t.Fatalf("kind %v", s.Kind())
		}
		v := s.ReadString()
		values = append(values, string(v))
		aliases = append(aliases, within(v, data))
	}
	if s.Failed() || !s.AtEnd() {
		t.Fatal(s.Err())
	}
	wantNames, wantValues := []string{"plain", "escaped", "next"}, []string{"car", "car", "a\tb"}
	for i := range wantNames {
		if names[i] != wantNames[i] || values[i] != wantValues[i] {
			t.Errorf("member %d: %q: %q, want %q: %q", i, names[i], values[i], wantNames[i], wantValues[i])
		}
	}
	if !aliases[0] || aliases[1] || aliases[2] {
		t.Errorf("values alias the input: %v, want only the first (no escapes)", aliases)
	}
}

// within reports whether b is a slice of data's memory.
func within(b, data []byte) bool {
	if len(b) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&data[0]))
	return p >= lo && p < lo+uintptr(len(data))
}
