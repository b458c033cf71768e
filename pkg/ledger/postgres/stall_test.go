package postgres

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// TestPostgresStallMidLoad: issue 19 item 2 at the store. 32 requests at a
// time reserve, compute for up to 2 ms and commit against a PostgreSQL of
// the test's own, which is stalled (SIGSTOP of every process) for 4 s in
// the middle. Every Commit that failed (the request is answered 503) must
// leave no usage record once the server is back and the voids are done,
// every Commit that succeeded must have one, and the books must balance.
func TestPostgresStallMidLoad(t *testing.T) {
	pg := ledgertest.StartPostgres(t)
	s := openStore(t, pg.DSN, ledger.Options{}).(*postgresStore)
	_, key := ledgertest.NewAccount(t, s, funded, &ledger.Caps{})

	var mu sync.Mutex
	var charged, failed []string
	var stop atomic.Bool
	var seq atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for !stop.Load() {
				id := fmt.Sprintf("stall-%06d", seq.Add(1))
				r, err := s.Reserve(bg, key, "directions", 1, id)
				if err != nil {
					if !errors.Is(err, ledger.ErrUnavailable) {
						t.Errorf("Reserve: %v", err)
					}
					continue // answered 503 before anything was held
				}
				time.Sleep(time.Duration(seq.Load()%2000) * time.Microsecond)
				err = s.Commit(bg, r)
				mu.Lock()
				if err == nil {
					charged = append(charged, id)
				} else {
					failed = append(failed, id)
				}
				mu.Unlock()
			}
		})
	}
	pg.StallMidLoad(t)
	stop.Store(true)
	wg.Wait()

	deadline := time.Now().Add(15 * time.Second)
	for s.voids.queued() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := s.voids.queued(); n > 0 {
		t.Fatalf("%d voids still queued 15 s after the server came back", n)
	}
	if len(failed) == 0 || len(charged) == 0 {
		t.Fatalf("%d commits succeeded and %d failed: the stall did not land mid-load", len(charged), len(failed))
	}
	for _, id := range failed {
		if u, err := s.LookupUsage(bg, id); !errors.Is(err, ledger.ErrUnknownRequest) {
			t.Errorf("request %s failed its Commit (answered 503) but is charged: %+v, %v", id, u, err)
		}
	}
	for _, id := range charged {
		if _, err := s.LookupUsage(bg, id); err != nil {
			t.Errorf("request %s was committed but has no usage record: %v", id, err)
		}
	}
	ledgertest.MustVerify(t, s)
	t.Logf("%d committed, %d failed during the stall; voids: %v", len(charged), len(failed), voidOutcomes(t, pg.DSN))
}

// voidOutcomes counts ledger_voids by outcome and reason.
func voidOutcomes(t *testing.T, dsn string) map[string]int {
	t.Helper()
	conn, err := pgx.Connect(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)
	rows, err := conn.Query(bg, `SELECT outcome || ': ' || split_part(reason, ':', 1), count(*) FROM ledger_voids GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		out[k] = n
	}
	return out
}

// TestPostgresCommitDeadline: the server refuses a commit it runs after
// its deadline and gives the credits back; a void releases a live hold,
// refunds a landed charge, and is harmless twice.
func TestPostgresCommitDeadline(t *testing.T) {
	dsn := newPostgresDSN(t)
	s := openStore(t, dsn, ledger.Options{}).(*postgresStore)
	acct, key := ledgertest.NewAccount(t, s, 100, &ledger.Caps{Daily: 50})
	conn, err := pgx.Connect(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)

	late, err := s.Reserve(bg, key, "isochrone", 5, "late")
	if err != nil {
		t.Fatal(err)
	}
	var outcome string
	err = conn.QueryRow(bg, `SELECT o_outcome FROM ledger_commit($1, $2, now(), clock_timestamp() - interval '1 ms')`,
		late.ID, late.AccountID).Scan(&outcome)
	if err != nil || outcome != "late" {
		t.Fatalf("ledger_commit past its deadline: %q, %v; want late", outcome, err)
	}

	live, _ := s.Reserve(bg, key, "matrix", 7, "live")
	landed, _ := s.Reserve(bg, key, "matrix", 11, "landed")
	if err := s.Commit(bg, landed); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r    ledger.Reservation
		want string
	}{{live, "released"}, {landed, "refunded"}, {landed, "nothing"}} {
		var got string
		err := conn.QueryRow(bg, `SELECT o_outcome FROM ledger_void($1, $2, $3, 'test')`, c.r.ID, c.r.AccountID, c.r.RequestID).Scan(&got)
		if err != nil || got != c.want {
			t.Errorf("void of %s: %q, %v; want %s", c.r.RequestID, got, err, c.want)
		}
	}
	if err := s.Commit(bg, live); !errors.Is(err, ledger.ErrUnknownReservation) {
		t.Errorf("Commit after its void = %v, want ErrUnknownReservation", err)
	}
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 100 || a.Held != 0 || a.Usage.Today != 0 || a.Usage.Requests != 0 {
		t.Errorf("after a late commit and three voids: %+v, want everything back", a)
	}
	for _, id := range []string{"late", "live", "landed"} {
		if _, err := s.LookupUsage(bg, id); !errors.Is(err, ledger.ErrUnknownRequest) {
			t.Errorf("LookupUsage(%s) = %v, want ErrUnknownRequest", id, err)
		}
	}
	ledgertest.MustVerify(t, s)
}
