package open_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/ledger"
)

// BenchmarkMeter measures the metering overhead per request:
// Authenticate (cached) + Reserve + Commit, durable before returning, with
// exactly inflight requests in flight (goroutines calling in a loop, like
// that many synchronous HTTP clients), on one hot account and on 64
// accounts. Run with -benchtime=3000x or so; ns/op is wall time per request
// across all goroutines, so requests/s = 1e9 / ns/op; cpu-ns/op is the
// process's CPU per request (the store's goroutines and syscalls included),
// what a loaded server pays.
func BenchmarkMeter(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) ledger.Store
	}{
		{"bolt", func(b *testing.B) ledger.Store {
			return openStore(b, filepath.Join(b.TempDir(), "ledger.db"), ledger.Options{})
		}},
		{"postgres", func(b *testing.B) ledger.Store { return openStore(b, newPostgresDSN(b), ledger.Options{}) }},
	}
	runs := []struct{ accounts, inFlight int }{{1, 1}, {1, 2}, {1, 4}, {1, 8}, {1, 64}, {64, 64}}
	for _, be := range backends {
		for _, r := range runs {
			name := fmt.Sprintf("%s/accounts=%d/inflight=%d", be.name, r.accounts, r.inFlight)
			b.Run(name, func(b *testing.B) { benchMeter(b, be.open(b), r.accounts, r.inFlight) })
		}
	}
}

func benchMeter(b *testing.B, s ledger.Store, accounts, inFlight int) {
	keys := make([]string, accounts)
	for i := range keys {
		acct, err := s.CreateAccount(bg, 1<<40, &ledger.Caps{})
		if err != nil {
			b.Fatal(err)
		}
		keys[i] = acct.Key.Secret.Reveal()
	}
	var left, seq atomic.Int64
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	b.ResetTimer()
	defer benchcpu.Report(b)()
	for w := range inFlight {
		key := keys[w%len(keys)]
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				// Ids sort in issue order, as the server's time-ordered ids do.
				if err := meterOnce(s, key, fmt.Sprintf("bench-%012d", seq.Add(1))); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// meterOnce is what the middleware does for one successful request.
func meterOnce(s ledger.Store, key, requestID string) error {
	info, err := s.Authenticate(bg, key)
	if err != nil {
		return err
	}
	r, err := s.Reserve(bg, info, "directions", 1, requestID)
	if err != nil {
		return err
	}
	return s.Commit(bg, r)
}
