package ledger

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// BenchmarkMeter measures the metering overhead per request:
// Authenticate (cached) + Reserve + Commit, durable before returning, with
// many requests in flight (as a busy server has), on one hot account and on
// 64 accounts. Run with -benchtime=5000x or so; ns/op is wall time per
// request across all goroutines, so requests/s = 1e9 / ns/op.
func BenchmarkMeter(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) Store
	}{
		{"bolt", func(b *testing.B) Store { return openStore(b, filepath.Join(b.TempDir(), "ledger.db"), Options{}) }},
		{"postgres", func(b *testing.B) Store { return openStore(b, newPostgresDSN(b), Options{}) }},
	}
	for _, be := range backends {
		for _, accounts := range []int{1, 64} {
			for _, inFlight := range []int{1, 64, 256} {
				name := fmt.Sprintf("%s/accounts=%d/inflight=%d", be.name, accounts, inFlight)
				b.Run(name, func(b *testing.B) { benchMeter(b, be.open(b), accounts, inFlight) })
			}
		}
	}
}

func benchMeter(b *testing.B, s Store, accounts, inFlight int) {
	keys := make([]string, accounts)
	for i := range keys {
		acct, err := s.CreateAccount(bg, 1<<40, &Caps{})
		if err != nil {
			b.Fatal(err)
		}
		keys[i] = acct.Key.Secret.Reveal()
	}
	var worker, seq atomic.Int64
	b.SetParallelism(max(1, inFlight/2)) // 2 cores here
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := worker.Add(1)
		key := keys[int(w)%len(keys)]
		for pb.Next() {
			info, err := s.Authenticate(bg, key)
			if err != nil {
				b.Fatal(err)
			}
			// Ids sort in issue order, as the server's time-ordered ids do.
			r, err := s.Reserve(bg, info, "directions", 1, fmt.Sprintf("bench-%012d", seq.Add(1)))
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Commit(bg, r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
