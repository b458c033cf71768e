package ledgertest

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mapsco/maps/pkg/ledger"
)

// hammer runs workers goroutines, spread over the given stores, each making
// attempts Reserve+Commit calls of cost credits. It returns how many were
// committed and how many refused for money; any other error fails the test.
func hammer(t *testing.T, stores []ledger.Store, key ledger.KeyInfo, workers, attempts int, cost int64) (committed, refused int64) {
	t.Helper()
	var ok, short atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		s := stores[w%len(stores)]
		wg.Go(func() {
			for i := range attempts {
				id := fmt.Sprintf("w%d-%d", w, i)
				r, err := s.Reserve(bg, key, "directions", cost, id)
				if errors.Is(err, ledger.ErrInsufficientCredits) {
					short.Add(1)
					continue
				}
				if err == nil {
					err = s.Commit(bg, r)
				}
				if err != nil {
					errs <- fmt.Errorf("request %s: %w", id, err)
					return
				}
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	return ok.Load(), short.Load()
}

// CheckExactlyK hammers an account funded for exactly k requests and checks
// that exactly k went through, the rest were refused, and the books balance.
func CheckExactlyK(t *testing.T, stores []ledger.Store, workers, attempts int, k, cost int64) {
	s := stores[0]
	_, key := NewAccount(t, s, k*cost, &ledger.Caps{})
	committed, refused := hammer(t, stores, key, workers, attempts, cost)
	total := int64(workers * attempts)
	if committed != k || refused != total-k {
		t.Errorf("%d committed and %d refused of %d, want exactly %d committed", committed, refused, total, k)
	}
	a, err := s.GetAccount(bg, key.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 0 || a.Held != 0 || a.Usage.AllTime != k*cost || a.Usage.Requests != k {
		t.Errorf("final account %+v, want balance 0, nothing held, %d requests charged", a, k)
	}
	MustVerify(t, s)
}

func contractConcurrentExactlyK(t *testing.T, open Opener) {
	s := open(t, ledger.Options{})
	CheckExactlyK(t, []ledger.Store{s}, 64, 8, 300, 2)
}

// RunMixedOutcomes mixes commits and releases: the balance must
// equal the credits minus exactly the committed charges.
func RunMixedOutcomes(t *testing.T, s ledger.Store) {
	_, key := NewAccount(t, s, 1000, &ledger.Caps{})
	var committed atomic.Int64
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Go(func() {
			for i := range 20 {
				r, err := s.Reserve(bg, key, "matrix", 3, fmt.Sprintf("mix-%d-%d", w, i))
				if errors.Is(err, ledger.ErrInsufficientCredits) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				if i%3 == 0 {
					err = s.Release(bg, r)
				} else if err = s.Commit(bg, r); err == nil {
					committed.Add(3)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if b := BalanceOf(t, s, key.AccountID); b != 1000-committed.Load() {
		t.Errorf("balance %d, want 1000 - %d committed", b, committed.Load())
	}
	MustVerify(t, s)
}
