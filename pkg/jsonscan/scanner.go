package jsonscan

import (
	"fmt"
	"strconv"
)

// This file holds the Scanner's state, the kinds of values, the structure of objects and arrays, and syntax
// errors. Strings, numbers and skipping have files of their own.

// Kind is the JSON type of the next value, judged from its first byte.
type Kind uint8

// The kinds of JSON values.
const (
	Invalid Kind = iota // not the start of a value, or after a syntax error
	Object
	Array
	String
	Number
	Bool
	Null
)

// String names the kind as a client would, for messages like "must be a number, got string".
func (k Kind) String() string {
	switch k {
	case Object:
		return "object"
	case Array:
		return "array"
	case String:
		return "string"
	case Number:
		return "number"
	case Bool:
		return "boolean"
	case Null:
		return "null"
	}
	return "invalid value"
}

// Scanner reads one JSON document in place. The zero value reads an empty document; New starts one.
type Scanner struct {
	data      []byte
	pos       int
	failed    bool
	errOffset int
	errMsg    string
	scratch   []byte // unescaped strings, used only for those that hold escapes
}

// New returns a Scanner at the start of data. data is read, never modified, and must not change while the
// Scanner is in use.
func New(data []byte) Scanner { return Scanner{data: data} }

// SyntaxError is the first place where a document breaks the JSON grammar (or a limit of this package).
type SyntaxError struct {
	Offset int    // of the offending byte, from 0; the document's length when it ended too early
	Msg    string // what was wrong, e.g. "unexpected character '}', expecting a value"
}

// Error returns "malformed JSON at byte N: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("malformed JSON at byte %d: %s", e.Offset, e.Msg)
}

// Err returns the first syntax error, or nil when there has been none. It returns the concrete type so that a
// caller can read the offset; compare it with nil before storing it in an error interface.
func (s *Scanner) Err() *SyntaxError {
	if !s.failed {
		return nil
	}
	return &SyntaxError{Offset: s.errOffset, Msg: s.errMsg}
}

// Failed reports whether a syntax error has been recorded.
func (s *Scanner) Failed() bool { return s.failed }

// Fail records msg as a syntax error at the current offset, unless one is recorded already: a decoder uses it for
// what the grammar allows but the document's format does not ("unexpected data after the request object").
func (s *Scanner) Fail(msg string) { s.fail(s.pos, msg) }

// fail records the first syntax error; later ones are consequences of it.
func (s *Scanner) fail(offset int, msg string) {
	if !s.failed {
		s.failed, s.errOffset, s.errMsg = true, offset, msg
	}
}

// Offset returns the offset of the next byte to read. After Kind or AtEnd, whitespace has been skipped and it is
// the offset of the next value.
func (s *Scanner) Offset() int { return s.pos }

func (s *Scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// AtEnd reports whether only whitespace is left.
func (s *Scanner) AtEnd() bool {
	s.skipSpace()
	return s.pos == len(s.data)
}

// Kind skips whitespace and reports the type of the next value without consuming it. At the end of the input or
// before a byte that cannot start a value it records a syntax error and returns Invalid.
func (s *Scanner) Kind() Kind {
	if s.failed {
		return Invalid
	}
	s.skipSpace()
	if s.pos == len(s.data) {
		s.fail(s.pos, "unexpected end of input, expecting a value")
		return Invalid
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return Object
	case c == '[':
		return Array
	case c == '"':
		return String
	case c == '-' || (c >= '0' && c <= '9'):
		return Number
	case c == 't' || c == 'f':
		return Bool
	case c == 'n':
		return Null
	default:
		s.fail(s.pos, "unexpected "+describeByte(c)+", expecting a value")
		return Invalid
	}
}

// Enter consumes the '{' or '[' that Kind has just reported as Object or Array.
func (s *Scanner) Enter() { s.pos++ }

// Next reports whether another member or element follows in the object or array being read, consuming the ','
// before it, or consumes the closing bracket and reports false. closer is '}' in an object and ']' in an array;
// first is true before the first member or element:
//
//	for first := true; s.Next(']', first); first = false {
//		// read one element
//	}
func (s *Scanner) Next(closer byte, first bool) bool {
	if s.failed {
		return false
	}
	s.skipSpace()
	if s.pos == len(s.data) {
		s.fail(s.pos, "unexpected end of input, expecting '"+string(closer)+"'")
		return false
	}
	switch c := s.data[s.pos]; {
	case c == closer:
		s.pos++
		return false
	case first:
		return true
	case c == ',':
		s.pos++
		return true
	default:
		s.fail(s.pos, "unexpected "+describeByte(c)+", expecting ',' or '"+string(closer)+"'")
		return false
	}
}

// MemberName reads a member name and the ':' after it, and returns the name unescaped. The slice is valid until
// the next call to MemberName or ReadString; it is nil after a syntax error.
func (s *Scanner) MemberName() []byte {
	raw, escaped := s.memberName()
	if escaped {
		s.scratch = Unescape(s.scratch[:0], raw)
		return s.scratch
	}
	return raw
}

// memberName reads a member name and the ':' after it. It returns the raw name between the quotes and whether it
// holds escapes.
func (s *Scanner) memberName() (raw []byte, escaped bool) {
	s.skipSpace()
	if s.pos == len(s.data) || s.data[s.pos] != '"' {
		s.fail(s.pos, "expecting a member name in double quotes")
		return nil, false
	}
	raw, escaped = s.readString()
	s.skipSpace()
	if s.failed || s.pos == len(s.data) || s.data[s.pos] != ':' {
		s.fail(s.pos, "expecting ':' after a member name")
		return nil, false
	}
	s.pos++
	return raw, escaped
}

// describeByte names a byte for a syntax error message.
func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "character " + strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}
