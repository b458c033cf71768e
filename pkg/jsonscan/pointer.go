package jsonscan

import (
	"strconv"
	"strings"
)

// JSON pointers (RFC 6901) that name a value for an error message, built as a decoder walks down and formatted
// only when an error is reported.

// MaxPointerDepth is the number of segments a Pointer holds. It is a fixed array, not a slice, so that building
// one on every value read costs no allocation; a schema-directed decoder knows how deep it goes.
const MaxPointerDepth = 4

// Pointer is a JSON pointer of at most MaxPointerDepth segments. The zero value points to the whole document;
// Member and Index return a pointer one level down. Pointer is a value: extending it leaves the original as it
// was, so a decoder passes its own down and keeps it.
type Pointer struct {
	segments [MaxPointerDepth]segment
	n        int
}

// segment is a member name, or an array index when index >= 0.
type segment struct {
	name  string
	index int
}

// Member returns the pointer to the member called name of the object p points to. name is as the document has
// it, unescaped; String escapes it. It panics past MaxPointerDepth segments, a limit of the decoder, not of
// its input.
func (p Pointer) Member(name string) Pointer { return p.push(segment{name: name, index: -1}) }

// Index returns the pointer to element i (from 0) of the array p points to. It panics past MaxPointerDepth
// segments.
func (p Pointer) Index(i int) Pointer { return p.push(segment{index: i}) }

// push is small enough to inline, which the decoders' loops need: a call copying the Pointer in and out made
// decoding 1,000 coordinates 30 % slower. Hence the constant message.
func (p Pointer) push(s segment) Pointer {
	if p.n == MaxPointerDepth {
		panic("jsonscan: a Pointer holds at most MaxPointerDepth segments")
	}
	p.segments[p.n] = s
	p.n++
	return p
}

// String formats the pointer: "" for the whole document, else "/" before each segment, with "~" and "/" in
// member names escaped as "~0" and "~1" and bytes that are not UTF-8 replaced by U+FFFD (a pointer is text, and
// goes into JSON text).
func (p Pointer) String() string {
	var buf [64]byte
	b := buf[:0]
	for _, s := range p.segments[:p.n] {
		b = append(b, '/')
		if s.index >= 0 {
			b = strconv.AppendInt(b, int64(s.index), 10)
			continue
		}
		for _, c := range []byte(strings.ToValidUTF8(s.name, "\uFFFD")) {
			switch c {
			case '~':
				b = append(b, '~', '0')
			case '/':
				b = append(b, '~', '1')
			default:
				b = append(b, c)
			}
		}
	}
	return string(b)
}
