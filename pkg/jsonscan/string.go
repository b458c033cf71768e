package jsonscan

import (
	"unicode/utf16"
	"unicode/utf8"
)

// JSON strings: reading one in place, checking its escapes, and decoding them. Decoding is needed only for
// strings that hold escapes, which clients rarely send, so the common case returns a slice of the input.

// ReadString consumes the string Kind has just reported and returns its content unescaped. The slice is valid
// until the next call to ReadString or MemberName; it is nil after a syntax error. UTF-8 is not checked: a
// string that is not valid text simply matches nothing a decoder knows, and strconv.Quote writes it safely.
func (s *Scanner) ReadString() []byte {
	raw, escaped := s.readString()
	if escaped {
		s.scratch = Unescape(s.scratch[:0], raw)
		return s.scratch
	}
	return raw
}

// readString consumes a string whose opening quote is at s.pos and returns its raw content, checking escapes and
// rejecting control characters.
func (s *Scanner) readString() (raw []byte, escaped bool) {
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			return s.data[start:i], escaped
		case c == '\\':
			escaped = true
			n := escapeLength(s.data[i:])
			if n == 0 {
				s.fail(i, "invalid escape in string")
				return nil, false
			}
			i += n - 1
		case c < 0x20:
			s.fail(i, "control character "+describeByte(c)+" in string")
			return nil, false
		}
	}
	s.fail(len(s.data), "unexpected end of input inside a string")
	return nil, false
}

// escapeLength returns the length of the escape sequence at the start of b, or 0 when it is not valid.
func escapeLength(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		for _, h := range b[2:6] {
			if hexValue(h) < 0 {
				return 0
			}
		}
		return 6
	}
	return 0
}

func hexValue(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// Unescape appends to dst the decoded content of raw, the bytes between the quotes of a JSON string whose escapes
// are valid (as ReadString and MemberName have checked them; Unescape does not, and may panic on a truncated
// escape). A lone surrogate becomes U+FFFD, as in encoding/json.
func Unescape(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(raw[i+1:])
			i += 4
			if utf16.IsSurrogate(r) && i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if pair := utf16.DecodeRune(r, hex4(raw[i+3:])); pair != utf8.RuneError {
					r = pair
					i += 6
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, raw[i])
		}
	}
	return dst
}

func hex4(b []byte) rune {
	return hexValue(b[0])<<12 | hexValue(b[1])<<8 | hexValue(b[2])<<4 | hexValue(b[3])
}
