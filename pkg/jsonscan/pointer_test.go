package jsonscan

import (
	"testing"
)

func TestPointerString(t *testing.T) {
	var root Pointer
	coords := root.Member("coordinates")
	tests := []struct {
		p    Pointer
		want string
	}{
		{root, ""},
		{coords, "/coordinates"},
		{coords.Index(12).Index(1), "/coordinates/12/1"},
		{root.Member("contours").Index(0).Member("time_minutes"), "/contours/0/time_minutes"},
		{root.Member("a/b~c").Member("~1"), "/a~1b~0c/~01"},
		{root.Member(""), "/"},
		{root.Member("").Member(""), "//"},
		{root.Member("caf\xc3\xa9\xff"), "/café\uFFFD"},
		{root.Member("0").Index(0), "/0/0"},
		{root.Index(2).Index(1).Index(0), "/2/1/0"},
		{root.Index(2147483647), "/2147483647"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
	if coords.String() != "/coordinates" {
		t.Errorf("extending a pointer changed it: %q", coords)
	}
}

// TestPointerDepth checks that a pointer past MaxPointerDepth segments panics rather than drop a segment.
func TestPointerDepth(t *testing.T) {
	p := Pointer{}
	for i := range MaxPointerDepth {
		p = p.Index(i)
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic past MaxPointerDepth")
		}
	}()
	p.Member("deep")
}

// TestPointerIndexRange checks that an index a Pointer cannot hold panics rather than wrap.
func TestPointerIndexRange(t *testing.T) {
	for _, i := range []int64{-1, 1 << 31} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Index(%d) did not panic", i)
				}
			}()
			Pointer{}.Index(int(i))
		}()
	}
}
