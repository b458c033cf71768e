package api

import (
	"unicode/utf16"
	"unicode/utf8"
)

// JSON strings for the tokenizer of decode_scan.go: reading one in place, checking its escapes, and decoding
// them. Decoding is needed only for names and values that hold escapes, which clients rarely send, so the
// common case compares the raw bytes.

// readString consumes a string whose opening quote is at s.pos and returns its raw content, checking escapes and
// rejecting control characters. UTF-8 is not checked: a name or value that is not valid text simply matches
// nothing the decoders know, and messages quote it safely.
func (s *scanner) readString() (raw []byte, escaped bool) {
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

// unescape appends the decoded content of a raw string that readString has checked. A lone surrogate
// becomes U+FFFD, as in encoding/json.
func unescape(dst, raw []byte) []byte {
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
