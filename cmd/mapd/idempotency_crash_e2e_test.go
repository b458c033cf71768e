package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Issue 34 item 1: an Idempotency-Key is bound to its reservation durably.
// One keyed request killed with -9 mid-computation five times, then
// retried until answered, is charged once in all: the embedded ledger
// voids at replay the charge whose answer was never stored, and the
// PostgreSQL ledger gives back the dead request's hold when the key is
// taken over after its lease. Before, five kills cost 10 credits and
// more for one 5-credit answer.

// crashBody is a 5-credit request that computes for a while: 50 waypoints
// on foot with steps.
var crashBody = strings.Replace(directionsBody(50), "{", `{"profile":"pedestrian","include_steps":true,`, 1)

func TestIdempotencyKeyKilledMidComputationEmbedded(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1000)
	keys := 1 // a kill that comes after the answer (a loaded machine) ends its key: the next rounds take a new one
	key := func() string { return fmt.Sprintf("order-crash-%d", keys) }
	seen := map[string]bool{}
	voided := 0
	for round := range 5 {
		p := serveMetered(t, dsn)
		voided += strings.Count(p.logText(), "voided the charge")
		answered := make(chan reply, 1)
		go func() {
			r, _ := p.sendKeyQuiet("/v1/directions", bearer(acct.Secret), key(), crashBody)
			answered <- r
		}()
		id := pollFor(t, 20*time.Second, func() string { return newKeyedCharge(t, dsn, key(), seen) })
		p.kill9()
		r := <-answered
		t.Logf("round %d: killed with -9 once request %s of key %s was journaled; the client got status %d", round, id, key(), r.status)
		if r.status == 200 {
			keys++
		}
	}
	p := serveMetered(t, dsn)
	voided += strings.Count(p.logText(), "voided the charge")
	var got reply
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if got = p.sendKey(t, "/v1/directions", bearer(acct.Secret), key(), crashBody); got.status != 409 {
			break
		}
	}
	if got.status != 200 {
		t.Fatalf("the retry after five kills: %d %s", got.status, got.raw)
	}
	again := p.sendKey(t, "/v1/directions", bearer(acct.Secret), key(), crashBody)
	if again.raw != got.raw || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("a second retry: %d (replayed %q), want the first answer", again.status, again.header.Get("Idempotent-Replayed"))
	}
	p.stop(t)
	a := showAccount(t, dsn, acct.ID)
	t.Logf("five kills (%d charges voided at replay), %d keys answered: balance %d, %d requests, %d credits charged", voided, keys, a.Balance, a.Usage.Requests, a.Usage.AllTime)
	if a.Usage.AllTime != 5*int64(keys) || a.Usage.Requests != int64(keys) {
		t.Errorf("charged %d credits for %d requests, want %d for the %d keys' answers", a.Usage.AllTime, a.Usage.Requests, 5*keys, keys)
	}
	if voided == 0 {
		t.Errorf("no kill landed mid-computation (no charge voided): the test proved nothing")
	}
	verifyLedger(t, dsn)
}

func TestIdempotencyKeyKilledMidComputationPostgres(t *testing.T) {
	dsn, _ := pgSchemaDSN(t)
	acct := createAccount(t, dsn, 1000)
	keys := 1 // as in the embedded test: a key answered before its kill ends it
	key := func() string { return fmt.Sprintf("order-crash-pg-%d", keys) }
	seen := map[string]bool{}
	// The lease is --compute-timeout + 10 s: after it, the key of a dead
	// request is taken over and its hold given back.
	args := []string{"--compute-timeout", "2s"}
	for round := range 3 {
		p := serveMetered(t, dsn, args...)
		answered := make(chan reply, 1)
		go func() { // retried while the dead request's lease runs (409)
			r, _ := p.sendKeyQuiet("/v1/directions", bearer(acct.Secret), key(), crashBody)
			for ; r.status == 409; r, _ = p.sendKeyQuiet("/v1/directions", bearer(acct.Secret), key(), crashBody) {
				time.Sleep(300 * time.Millisecond)
			}
			answered <- r
		}()
		var r reply
		id := pollFor(t, 40*time.Second, func() string {
			select {
			case r = <-answered:
				return "none: answered first"
			default:
				return heldRequest(t, dsn, acct.ID, seen)
			}
		})
		p.kill9()
		if r.status == 0 {
			r = <-answered
		}
		t.Logf("round %d: killed with -9 while request %s of key %s held its credits; the client got status %d", round, id, key(), r.status)
		if r.status == 200 {
			keys++
		}
	}
	p := serveMetered(t, dsn, args...)
	start := time.Now()
	var got reply
	conflicts := 0
	for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		if got = p.sendKey(t, "/v1/directions", bearer(acct.Secret), key(), crashBody); got.status != 409 {
			break
		}
		conflicts++
	}
	if got.status != 200 {
		t.Fatalf("the retry after three kills: %d %s", got.status, got.raw)
	}
	p.stop(t)
	a := showAccount(t, dsn, acct.ID)
	t.Logf("three kills, retried for %v (%d × 409 while the lease ran), %d keys answered: balance %d, held %d, %d requests, %d credits charged",
		time.Since(start).Round(time.Second), conflicts, keys, a.Balance, a.Held, a.Usage.Requests, a.Usage.AllTime)
	if a.Usage.AllTime != 5*int64(keys) || a.Usage.Requests != int64(keys) || a.Held != 0 {
		t.Errorf("charged %d credits for %d requests, %d held; want %d for the %d keys' answers, none held (each takeover voids the dead hold)",
			a.Usage.AllTime, a.Usage.Requests, a.Held, 5*keys, keys)
	}
	verifyLedger(t, dsn)
}

// sendKeyQuiet is sendKey for a request the test kills: no answer is fine.
func (p *mapdProc) sendKeyQuiet(path, authz, key, body string) (reply, error) {
	req, err := http.NewRequest(http.MethodPost, p.base+path, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", authz)
	req.Header.Set("Idempotency-Key", key)
	resp, err := meterClient.Do(req)
	if err != nil {
		return reply{status: 0}, err
	}
	resp.Body.Close()
	return reply{status: resp.StatusCode}, nil
}

// pollFor polls find every millisecond until it returns non-empty.
func pollFor(t *testing.T, timeout time.Duration, find func() string) string {
	t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if v := find(); v != "" {
			return v
		}
	}
	t.Fatalf("nothing happened within %v", timeout)
	return ""
}

var journaledKey = regexp.MustCompile(`\{"request_id":"(req_[0-9A-Z]+)"[^{}]*"key":"([^"]*)"\}`)

// newKeyedCharge returns the request id of a charge with the given key in
// the embedded ledger's journal that is not in seen (and adds it), or "".
func newKeyedCharge(t *testing.T, dsn, key string, seen map[string]bool) string {
	f, err := os.Open(dsn + "-journal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Only what the current epoch wrote: up to the acknowledgement mark's end.
	head := make([]byte, 24)
	if _, err := f.ReadAt(head, 2048); err != nil || string(head[:8]) != "mapdack\n" {
		return ""
	}
	raw := make([]byte, int64(binary.LittleEndian.Uint64(head[16:]))-4096)
	if _, err := f.ReadAt(raw, 4096); err != nil {
		t.Fatal(err)
	}
	for _, m := range journaledKey.FindAllSubmatch(raw, -1) {
		if id := string(m[1]); string(m[2]) == key && !seen[id] {
			seen[id] = true
			return id
		}
	}
	return ""
}

// heldRequest returns the request id of a hold of the account that is not
// in seen (and adds it), or "".
func heldRequest(t *testing.T, dsn, accountID string, seen map[string]bool) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT request_id FROM ledger_holds WHERE account_id = $1`, accountID)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			return id
		}
	}
	return ""
}

// TestIdempotencyKeysKilledUnderLoad (issue 34 item 1, the second
// run): 16 clients, each request with a fresh key, kill -9 mid-load, then
// every key that got no 200 retried on a restarted mapd until answered.
// Every key is charged exactly once: credits = cost × keys, one usage
// record a key (before: 33 of 18,544 keys charged twice).
func TestIdempotencyKeysKilledUnderLoad(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 10_000_000, "--daily", "0")
	body := directionsBody(12) // 2 credits
	p := serveMetered(t, dsn, "--rate-limit", "1000000")
	var mu sync.Mutex
	answered := map[string]bool{}
	var sent []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("load-%d-%d", w, i)
				mu.Lock()
				sent = append(sent, key)
				mu.Unlock()
				r, err := p.sendKeyQuiet("/v1/directions", bearer(acct.Secret), key, body)
				if err != nil {
					return // killed
				}
				mu.Lock()
				answered[key] = r.status == 200
				mu.Unlock()
			}
		})
	}
	time.Sleep(2 * time.Second)
	p.kill9()
	close(stop)
	wg.Wait()
	p = serveMetered(t, dsn, "--rate-limit", "1000000")
	retried := 0
	for _, key := range sent {
		if answered[key] {
			continue
		}
		retried++
		var r reply
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if r = p.sendKey(t, "/v1/directions", bearer(acct.Secret), key, body); r.status != 409 {
				break
			}
		}
		if r.status != 200 {
			t.Fatalf("key %s retried: %d %s", key, r.status, r.raw)
		}
	}
	p.stop(t)
	a := showAccount(t, dsn, acct.ID)
	t.Logf("%d keys sent, %d retried after the kill: %d requests, %d credits charged", len(sent), retried, a.Usage.Requests, a.Usage.AllTime)
	if a.Usage.Requests != int64(len(sent)) || a.Usage.AllTime != 2*int64(len(sent)) {
		t.Errorf("%d keys: %d requests and %d credits charged, want %d and %d", len(sent), a.Usage.Requests, a.Usage.AllTime, len(sent), 2*len(sent))
	}
	verifyLedger(t, dsn)
}
