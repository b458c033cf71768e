package places

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// fold returns the search key of a name or query: lower case, Latin letters
// without their accents (à → a, ç → c, ñ → n, œ → oe), every run of
// punctuation and spaces one space ("l'Aldosa" and "l Aldosa" match, so do
// "Sant Julià de Lòria" and "sant julia de loria"), trimmed.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true // drops leading spaces
	for _, r := range s {
		if r == utf8.RuneError {
			continue
		}
		r = unicode.ToLower(r)
		if base, ok := latin[r]; ok {
			b.WriteString(base)
			space = false
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
			continue
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}

// latin maps the accented lower-case letters of the Latin-1 and Latin
// Extended-A blocks that Western European names use to their base letters.
var latin = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'ā': "a", 'ă': "a", 'ą': "a", 'æ': "ae",
	'ç': "c", 'ć': "c", 'č': "c", 'ď': "d", 'đ': "d",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ē': "e", 'ę': "e", 'ě': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ī': "i", 'ı': "i",
	'ł': "l", 'ľ': "l", 'ĺ': "l", 'ñ': "n", 'ń': "n", 'ň': "n",
	'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'ō': "o", 'ő': "o", 'œ': "oe",
	'ŕ': "r", 'ř': "r", 'ś': "s", 'š': "s", 'ş': "s", 'ß': "ss", 'ť': "t", 'ţ': "t",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ū': "u", 'ů': "u", 'ű': "u",
	'ý': "y", 'ÿ': "y", 'ź': "z", 'ż': "z", 'ž': "z",
}
