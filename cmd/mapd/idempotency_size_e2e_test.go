package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestIdempotencyLedgerGrowth (issue 34 item 5): keyed 50-waypoint
// directions (with steps: about 510 KB an answer) on one ledger, the same
// requests unkeyed on another. Before, 200 keyed answers grew the ledger by
// 113 MiB; answers larger than ledger.MaxStoredAnswer are now stored as
// their SHA-256, and the test measures what a key costs beyond the usage
// record: the used pages of each ledger (bbolt's high-water mark) and the
// idempotency bucket's bytes, per request. Target: at most 2 KB. A retry
// of such a key is computed again, free, and is byte for byte the first
// answer.
func TestIdempotencyLedgerGrowth(t *testing.T) {
	n := 300 // about 4 minutes here; the figures in docs/metering.md
	if testing.Short() {
		n = 100
	}
	body := strings.Replace(directionsBody(50), "{", `{"include_steps":true,`, 1)
	used := map[bool]int64{}
	var bucket int64
	var first reply
	for _, keyed := range []bool{false, true} {
		dsn := ledgerFile(t)
		acct := createAccount(t, dsn, 1_000_000, "--daily", "0")
		p := serveMetered(t, dsn, "--rate-limit", "100000")
		var wg sync.WaitGroup
		var mu sync.Mutex
		bad := 0
		for w := range 4 {
			wg.Go(func() {
				for i := w; i < n; i += 4 {
					var r reply
					if keyed {
						r = p.sendKey(t, "/v1/directions", bearer(acct.Secret), fmt.Sprintf("growth-%d", i), body)
					} else {
						r = p.call(t, "/v1/directions", bearer(acct.Secret), body)
					}
					mu.Lock()
					if r.status != 200 {
						bad++
					}
					if keyed && i == 0 {
						first = r
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if bad > 0 {
			t.Fatalf("%d of %d requests were not answered 200", bad, n)
		}
		if keyed {
			again := p.sendKey(t, "/v1/directions", bearer(acct.Secret), "growth-0", body)
			if again.raw != first.raw || again.header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("the retry of a key whose answer (%d bytes) was stored as its hash: %d, replayed %q, same body %v",
					len(first.raw), again.status, again.header.Get("Idempotent-Replayed"), again.raw == first.raw)
			}
		}
		p.stop(t)
		used[keyed] = usedBytes(t, dsn) // both ledgers start alike: one account
		if keyed {
			bucket = bucketBytes(t, dsn, "idempotency")
			if a := showAccount(t, dsn, acct.ID); a.Usage.Requests != int64(n) {
				t.Errorf("%d requests charged for %d keys and one retry, want %d", a.Usage.Requests, n, n)
			}
		}
	}
	perKey := float64(used[true]-used[false]) / float64(n)
	t.Logf("%d requests of 50 waypoints with steps (answer %d bytes): ledger used %d bytes unkeyed, %d keyed: %.0f bytes a key beyond the usage record; the idempotency bucket holds %.0f bytes a key",
		n, len(first.raw), used[false], used[true], perKey, float64(bucket)/float64(n))
	if perKey > 2048 || float64(bucket)/float64(n) > 2048 {
		t.Errorf("a keyed answer costs the ledger %.0f bytes (%.0f in its bucket), want at most 2 KB", perKey, float64(bucket)/float64(n))
	}
}

// usedBytes is the ledger's used size (bbolt's high-water page), read with
// mapd stopped.
func usedBytes(t *testing.T, dsn string) int64 {
	db, err := bolt.Open(dsn, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var size int64
	db.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil })
	return size
}

// bucketBytes is what a bucket's pages hold in use.
func bucketBytes(t *testing.T, dsn, name string) int64 {
	db, err := bolt.Open(dsn, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte(name)); b != nil {
			st := b.Stats()
			n = int64(st.LeafInuse + st.BranchInuse + st.InlineBucketInuse)
		}
		return nil
	})
	return n
}
