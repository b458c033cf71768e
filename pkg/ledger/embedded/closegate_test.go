package embedded

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// TestBoltCommitDuringClose (issue 34 item 3): requests that reserve and
// commit while the store closes. Every Commit that returned nil (a 200)
// must have its usage record after a reopen, and every other one must
// cost nothing: once Close begins, Reserve and Commit fail with
// ErrUnavailable, and the charges they leave are cancelled.
func TestBoltCommitDuringClose(t *testing.T) {
	for _, mode := range syncModes {
		t.Run(mode.String(), func(t *testing.T) {
			for round := range 20 {
				commitDuringClose(t, mode, round)
			}
		})
	}
}

func commitDuringClose(t *testing.T, mode ledger.Sync, round int) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := Open(bg, path, ledger.Options{Sync: mode})
	if err != nil {
		t.Fatal(err)
	}
	_, key := ledgertest.NewAccount(t, s, 1_000_000, &ledger.Caps{})
	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range 16 {
		wg.Go(func() {
			<-start
			for i := 0; ; i++ {
				id := fmt.Sprintf("close-%d-%d-%d", round, w, i)
				r, err := s.Reserve(bg, key, "directions", 1, id)
				if err != nil {
					return
				}
				if err := s.Commit(bg, r); err != nil {
					return
				}
				mu.Lock()
				acked = append(acked, id)
				mu.Unlock()
			}
		})
	}
	close(start)
	time.Sleep(time.Duration(5+round%5) * time.Millisecond)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	s = openStore(t, path, ledger.Options{})
	defer s.Close()
	ledgertest.MustVerify(t, s)
	a, err := s.GetAccount(bg, key.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range acked {
		if _, err := s.LookupUsage(bg, id); err != nil {
			t.Errorf("round %d: request %s committed (a 200) during Close, but has no usage record: %v", round, id, err)
		}
	}
	if a.Usage.Requests != int64(len(acked)) {
		t.Errorf("round %d: %d requests charged, %d committed", round, a.Usage.Requests, len(acked))
	}
}
