package compare

import (
	"context"
	"sync"
	"sync/atomic"
)

// forEach calls fn(i) for every i in [0, n) on up to workers goroutines and
// returns the first error, after which no new call starts. Each i is
// handled once; fn writes its result into its own slot, so nothing is
// shared between calls but what fn shares itself.
func forEach(ctx context.Context, workers, n int, fn func(i int) error) error {
	var next atomic.Int64
	var failed atomic.Bool
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = fn(i)
				}
				if err != nil {
					once.Do(func() { first = err })
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return first
}
