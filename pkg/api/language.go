package api

import (
	"bytes"
	"strconv"

	"github.com/mapsco/maps/pkg/guidance"
)

// acceptLanguage picks the language of the instructions from an
// Accept-Language header (RFC 9110 §12.5.4) when the body names none: the
// supported language of highest weight, the earlier on a tie; English when
// the header is absent, names none we write, or cannot be read. A request
// is never refused for its header: the body's language member is where a
// client asks for one and hears about a mistake.
func acceptLanguage(header []byte) string {
	best, bestQ := guidance.DefaultLanguage, 0.0
	for len(header) > 0 {
		var item []byte
		item, header, _ = bytes.Cut(header, []byte{','})
		tag, params, _ := bytes.Cut(item, []byte{';'})
		q := 1.0
		if v, ok := bytes.CutPrefix(bytes.TrimSpace(params), []byte("q=")); ok {
			f, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64)
			if err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		lang, ok := guidance.Language(string(bytes.TrimSpace(tag)))
		if ok && q > bestQ {
			best, bestQ = lang, q
		}
	}
	return best
}
