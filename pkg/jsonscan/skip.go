package jsonscan

import "strconv"

// Literals and skipping: consuming true, false and null, and any value a decoder does not want, checked but
// not kept.

// MaxDepth bounds the nesting of a skipped value, so that a hostile document cannot exhaust the stack. It counts
// from the value Skip is called on: objects and arrays a decoder has entered itself do not count.
const MaxDepth = 512

// ReadBool consumes the true or false Kind has just reported as Bool and returns it.
func (s *Scanner) ReadBool() bool {
	if s.data[s.pos] == 't' {
		return s.literal("true")
	}
	s.literal("false")
	return false
}

// literal consumes word, failing when the input does not continue with it.
func (s *Scanner) literal(word string) bool {
	if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return true
	}
	s.fail(s.pos, "invalid literal, expecting "+word)
	return false
}

// Skip consumes one value of any kind, checking its syntax. After a syntax error it does nothing.
func (s *Scanner) Skip() { s.skipNested(0) }

func (s *Scanner) skipNested(depth int) {
	switch s.Kind() {
	case Object, Array:
		if depth == MaxDepth {
			s.fail(s.pos, "nested deeper than "+strconv.Itoa(MaxDepth)+" levels")
			return
		}
		closer := byte('}')
		if s.data[s.pos] == '[' {
			closer = ']'
		}
		s.Enter()
		for first := true; s.Next(closer, first); first = false {
			if closer == '}' {
				s.memberName()
			}
			s.skipNested(depth + 1)
		}
	case String:
		s.readString()
	case Number:
		s.ReadNumber()
	case Bool:
		s.ReadBool()
	case Null:
		s.literal("null")
	}
}
