package embedded

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// Every charged request encodes its usage record twice: in its journal
// record (committer) and into bbolt (applier). encoding/json's reflection
// was about a tenth of the embedded store's CPU per request, so the two
// records are written by hand here, byte for byte as json.Marshal writes
// them (TestUsageJSONMatchesMarshal), and json.Marshal is used only for
// what the hand encoder does not do: strings that need escaping and times
// outside the years 0–9999 or in zones offset by seconds (where
// json.Marshal fails). Decoding stays with
// encoding/json.

// encodeUsage returns u as json.Marshal would. A record from the server is
// about 200 bytes, so 256 holds it without growing.
func encodeUsage(u ledger.Usage) ([]byte, error) {
	if b, ok := appendUsageFields(make([]byte, 0, 256), u); ok {
		return append(b, '}'), nil
	}
	return json.Marshal(u)
}

// appendJournalJSON appends r as json.Marshal would.
func appendJournalJSON(dst []byte, r journalRecord) ([]byte, error) {
	b, ok := appendUsageFields(dst, r.Usage)
	if !ok || !plain(r.Key) {
		payload, err := json.Marshal(r)
		return append(dst, payload...), err
	}
	b = append(b, `,"day":`...)
	b = strconv.AppendInt(b, int64(r.Day), 10)
	b = append(b, `,"month":`...)
	b = strconv.AppendInt(b, int64(r.Month), 10)
	if r.Cancel {
		b = append(b, `,"cancel":true`...)
	}
	if r.Key != "" {
		b = append(b, `,"key":"`...)
		b = append(b, r.Key...)
		b = append(b, '"')
	}
	return append(b, '}'), nil
}

// appendUsageFields appends "{" and u's fields, without the closing brace;
// ok is false (and dst is returned unchanged) when a field needs what only
// encoding/json does.
func appendUsageFields(dst []byte, u ledger.Usage) (b []byte, ok bool) {
	if !plain(u.RequestID) || !plain(u.AccountID) || !plain(u.KeyID) || !plain(u.Operation) {
		return dst, false
	}
	if y := u.At.Year(); y < 0 || y > 9999 {
		return dst, false
	}
	if _, offset := u.At.Zone(); offset%60 != 0 { // RFC 3339 has no seconds in offsets: json.Marshal refuses
		return dst, false
	}
	b = append(dst, `{"request_id":"`...)
	b = append(b, u.RequestID...)
	b = append(b, `","account_id":"`...)
	b = append(b, u.AccountID...)
	b = append(b, `","key_id":"`...)
	b = append(b, u.KeyID...)
	b = append(b, `","operation":"`...)
	b = append(b, u.Operation...)
	b = append(b, `","credits":`...)
	b = strconv.AppendInt(b, u.Credits, 10)
	b = append(b, `,"at":"`...)
	b = u.At.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), true
}

// plain reports whether encoding/json writes s between quotes unchanged:
// printable ASCII without the quote, the backslash and the characters it
// escapes for HTML (<, >, &).
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
