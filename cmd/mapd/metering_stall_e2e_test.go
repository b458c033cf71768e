package main

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// TestMeteringPostgresStall: issue 19 item 2. mapd meters against a
// PostgreSQL of the test's own, which is stalled (SIGSTOP of every process)
// for 4 s in the middle of a load of 32 clients and then resumed. mapd
// answers 503 while it is stalled; once the server is back and mapd has
// settled the commits it gave up on, no request answered 503 has a usage
// record, every 200 has one, and the books balance.
func TestMeteringPostgresStall(t *testing.T) {
	pg := ledgertest.StartPostgres(t)
	acct := createAccount(t, pg.DSN, 1_000_000, "--daily", "0")
	s := serveMetered(t, pg.DSN, "--rate-limit", "1000000")

	var mu sync.Mutex
	var ok, unavailable []string
	counts := statusCounts{}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for !stop.Load() {
				r, err := s.send(t, "/v1/elevation", bearer(acct.Secret), elevationBody(1))
				mu.Lock()
				switch {
				case err != nil:
					t.Errorf("no answer: %v", err)
				case r.status == 200:
					ok = append(ok, r.body["request_id"].(string))
				case r.status == 503:
					unavailable = append(unavailable, r.body["instance"].(string))
				}
				if err == nil {
					counts[strconv.Itoa(r.status)]++
				}
				mu.Unlock()
			}
		})
	}
	pg.StallMidLoad(t)
	stop.Store(true)
	wg.Wait()
	s.stop(t) // a clean stop settles whatever mapd still has queued
	t.Logf("answers: %v", counts)
	if len(unavailable) == 0 || len(ok) == 0 || counts["200"]+counts["503"] != len(ok)+len(unavailable) || len(counts) != 2 {
		t.Fatalf("answers %v: want 200s and 503s only, and both", counts)
	}
	found, _ := usageOf(t, pg.DSN, unavailable)
	for id, u := range found {
		t.Errorf("request %s was answered 503 but charged: %+v", id, u)
	}
	if _, missing := usageOf(t, pg.DSN, ok); len(missing) > 0 {
		t.Errorf("%d requests answered 200 have no usage record: %v", len(missing), missing)
	}
	verifyLedger(t, pg.DSN)
}
