package embedded

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

// TestUsageJSONMatchesMarshal checks the hand encoders against
// encoding/json on random records: the same bytes, or the same error,
// whatever the strings, numbers, times and zones.
func TestUsageJSONMatchesMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 23))
	zones := []*time.Location{time.UTC, time.FixedZone("plus1", 3600), time.FixedZone("minus930", -9*3600-1800),
		time.FixedZone("lmt", -75)} // -00:01:15, which RFC 3339 cannot write
	alphabet := []string{"a", "Z", "0", "_", "-", " ", "~", "\"", "\\", "<", ">", "&", "\n", "\x00", "\x7f", "é", "\u2028", "\xff"}
	str := func() string {
		if rng.IntN(2) == 0 { // ids as the server makes them
			return "req_01M84J40AB5V42X5G6PP41YY6T"
		}
		var b []byte
		for range rng.IntN(12) {
			b = append(b, alphabet[rng.IntN(len(alphabet))]...)
		}
		return string(b)
	}
	for i := range 20000 {
		at := time.Unix(rng.Int64N(1<<40)-1<<39, rng.Int64N(1e9)).In(zones[rng.IntN(len(zones))])
		if rng.IntN(4) == 0 {
			at = at.Truncate(time.Second)
		}
		r := journalRecord{Usage: ledger.Usage{RequestID: str(), AccountID: str(), KeyID: str(), Operation: str(),
			Credits: rng.Int64() - 1<<62, At: at}, Day: rng.IntN(30000) - 100, Month: rng.IntN(1000), Cancel: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			r.Key = str()
		}
		checkUsageJSON(t, i, r)
	}
}

func checkUsageJSON(t *testing.T, i int, r journalRecord) {
	t.Helper()
	want, wantErr := json.Marshal(r.Usage)
	got, err := encodeUsage(r.Usage)
	if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("record %d: encodeUsage(%+v) = %s, %v; json.Marshal: %s, %v", i, r.Usage, got, err, want, wantErr)
	}
	want, wantErr = json.Marshal(r)
	prefix := []byte("prefix")
	got, err = appendJournalJSON(prefix, r)
	if (err != nil) != (wantErr != nil) || (err == nil && !bytes.Equal(got, append([]byte("prefix"), want...))) {
		t.Fatalf("record %d: appendJournalJSON(%+v) = %s, %v; json.Marshal: %s, %v", i, r, got, err, want, wantErr)
	}
}

// FuzzUsageJSON is the same check on arbitrary strings and numbers.
func FuzzUsageJSON(f *testing.F) {
	f.Add("req_01M84J40AB5V42X5G6PP41YY6T", "acct_1", "key_1", "directions", int64(1), int64(1795000000), 5, true)
	f.Add("a\"b", "<x>", "\u2028", "\xff", int64(-7), int64(-62167219201), -1, false)
	f.Fuzz(func(t *testing.T, req, acct, key, op string, credits, unix int64, day int, cancel bool) {
		r := journalRecord{Usage: ledger.Usage{RequestID: req, AccountID: acct, KeyID: key, Operation: op, Credits: credits,
			At: time.Unix(unix, int64(day)&0x3fffffff%1e9).UTC()}, Day: day, Month: day / 31, Cancel: cancel, Key: key}
		checkUsageJSON(t, 0, r)
	})
}
