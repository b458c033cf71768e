package playground

import (
	"testing"

	"github.com/valyala/fasthttp"
)

// FuzzLabelArgs: any query string is refused or read as a box with W ≤ E,
// S ≤ N and a zoom from 0 to 24, and a limit within its range.
func FuzzLabelArgs(f *testing.F) {
	for _, q := range []string{"bbox=1.4,42.4,1.8,42.7&zoom=9", "bbox=1,2,3&zoom=1", "bbox=NaN,0,1,1&zoom=3", "limit=21", "limit=-1&zoom=1e400"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		var args fasthttp.Args
		args.Parse(q)
		if box, zoom, err := labelArgs(&args); err == nil && (box[0] > box[2] || box[1] > box[3] || !(zoom >= 0 && zoom <= 24)) {
			t.Fatalf("%q read as %v zoom %v", q, box, zoom)
		}
		if n, err := intArg(&args, "limit", 8, 1, 20); err == nil && (n < 1 || n > 20) {
			t.Fatalf("%q: limit %d", q, n)
		}
	})
}
