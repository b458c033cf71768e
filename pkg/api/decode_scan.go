package api

import (
	"math"
	"strconv"
)

// This file is the JSON tokenizer under the request decoders: RFC 8259 grammar, read in place without building a
// tree, so that a valid request decodes with almost no allocation. The decoders walk the document by schema and
// call it for each value they expect; anything they do not know is skipped, but still checked, by skipValue.
//
// A syntax error is sticky: the first one is recorded with its byte offset (counted from 0) and every later call
// returns zero values, so the decoders' loops end and the caller reports that error, not the field errors.

// maxSkipDepth bounds the nesting of ignored values, so that a hostile body cannot exhaust the stack.
const maxSkipDepth = 512

// valueKind is the JSON type of the next value, judged from its first byte.
type valueKind uint8

const (
	kindInvalid valueKind = iota // not the start of a value, or after a syntax error
	kindObject
	kindArray
	kindString
	kindNumber
	kindBool
	kindNull
)

// String names the kind as a client would, for messages like "must be a number, got string".
func (k valueKind) String() string {
	switch k {
	case kindObject:
		return "object"
	case kindArray:
		return "array"
	case kindString:
		return "string"
	case kindNumber:
		return "number"
	case kindBool:
		return "boolean"
	case kindNull:
		return "null"
	}
	return "invalid value"
}

// scanner reads one JSON document in place.
type scanner struct {
	data      []byte
	pos       int
	failed    bool
	errOffset int
	errMsg    string
}

// fail records the first syntax error; later ones are consequences of it.
func (s *scanner) fail(offset int, msg string) {
	if !s.failed {
		s.failed, s.errOffset, s.errMsg = true, offset, msg
	}
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// atEnd reports whether only whitespace is left.
func (s *scanner) atEnd() bool {
	s.skipSpace()
	return s.pos == len(s.data)
}

// kind skips whitespace and reports the type of the next value without consuming it.
func (s *scanner) kind() valueKind {
	if s.failed {
		return kindInvalid
	}
	s.skipSpace()
	if s.pos == len(s.data) {
		s.fail(s.pos, "unexpected end of input, expecting a value")
		return kindInvalid
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return kindObject
	case c == '[':
		return kindArray
	case c == '"':
		return kindString
	case c == '-' || (c >= '0' && c <= '9'):
		return kindNumber
	case c == 't' || c == 'f':
		return kindBool
	case c == 'n':
		return kindNull
	default:
		s.fail(s.pos, "unexpected "+describeByte(c)+", expecting a value")
		return kindInvalid
	}
}

// enter consumes the '{' or '[' that kind has just reported.
func (s *scanner) enter() { s.pos++ }

// next reports whether another member or element follows in the object or array being read, consuming the ','
// before it, or consumes the closing bracket and reports false. first is true before the first element.
func (s *scanner) next(closer byte, first bool) bool {
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

// memberName reads a member name and the ':' after it. It returns the raw name between the quotes and whether
// it holds escapes (then the caller must unescape it before comparing).
func (s *scanner) memberName() (raw []byte, escaped bool) {
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

// readNumber consumes a number and returns its value. finite is false when the number is syntactically valid
// but does not fit a float64 (1e999): JSON has no NaN or Inf, but it has exponents.
func (s *scanner) readNumber() (v float64, finite bool) {
	start := s.pos
	end, ok := numberEnd(s.data, start)
	if !ok {
		s.fail(end, "malformed number")
		return 0, false
	}
	s.pos = end
	// The conversion does not allocate: strconv copies the string only into its error values.
	v, err := strconv.ParseFloat(string(s.data[start:end]), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// numberEnd follows the RFC 8259 number grammar from start; it returns the offset after the number, or the
// offset of the first byte that breaks the grammar.
func numberEnd(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digitsEnd(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digitsEnd(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// readBool consumes true or false; kind has seen 't' or 'f'.
func (s *scanner) readBool() bool {
	if s.data[s.pos] == 't' {
		return s.literal("true")
	}
	s.literal("false")
	return false
}

// literal consumes word, failing when the input does not continue with it.
func (s *scanner) literal(word string) bool {
	if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return true
	}
	s.fail(s.pos, "invalid literal, expecting "+word)
	return false
}

// skipValue consumes one value of any type, checking its syntax.
func (s *scanner) skipValue() { s.skipNested(0) }

func (s *scanner) skipNested(depth int) {
	switch s.kind() {
	case kindObject, kindArray:
		if depth == maxSkipDepth {
			s.fail(s.pos, "nested deeper than "+strconv.Itoa(maxSkipDepth)+" levels")
			return
		}
		closer := byte('}')
		if s.data[s.pos] == '[' {
			closer = ']'
		}
		s.enter()
		for first := true; s.next(closer, first); first = false {
			if closer == '}' {
				s.memberName()
			}
			s.skipNested(depth + 1)
		}
	case kindString:
		s.readString()
	case kindNumber:
		s.readNumber()
	case kindBool:
		s.readBool()
	case kindNull:
		s.literal("null")
	}
}

// describeByte names a byte for a syntax error message.
func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "character " + strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}
