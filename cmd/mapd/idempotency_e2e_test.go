package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestIdempotencyKeyEmbedded: a retry with the same Idempotency-Key and body
// gets the first answer, request_id included, and is charged once, also
// after a restart; another body is refused; keys are per account; a client
// that gave up and retries with its key pays for one answer.
func TestIdempotencyKeyEmbedded(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 10_000)
	other := createAccount(t, dsn, 10_000)
	p := serveMetered(t, dsn)
	body := directionsBody(12) // 2 credits

	first := p.sendKey(t, "/v1/directions", bearer(acct.Secret), "order-1", body)
	retry := p.sendKey(t, "/v1/directions", bearer(acct.Secret), "order-1", body)
	if first.status != 200 || retry.status != 200 || retry.raw != first.raw || retry.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("first %d, retry %d (replayed %q); bodies equal: %v", first.status, retry.status, retry.header.Get("Idempotent-Replayed"), retry.raw == first.raw)
	}
	reused := p.sendKey(t, "/v1/directions", bearer(acct.Secret), "order-1", directionsBody(13))
	checkProblem(t, reused, "idempotency-key-reused", "")
	if r := p.sendKey(t, "/v1/directions", bearer(other.Secret), "order-1", directionsBody(13)); r.status != 200 || r.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the same key on another account: %d %s", r.status, r.raw)
	}
	if r := p.sendKey(t, "/v1/directions", bearer(acct.Secret), strings.Repeat("x", 256), body); r.status != 400 {
		t.Errorf("a 256-character key: %d %s", r.status, r.raw)
	}

	// A client that gives up while its request computes, then retries
	// with the same key until it has an answer.
	heavy := strings.Replace(directionsBody(50), "{", `{"include_steps":true,`, 1) // 5 credits
	gave := postKeyGivingUp(t, p.base, bearer(acct.Secret), "order-2", heavy, 5*time.Millisecond)
	var got reply
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if got = p.sendKey(t, "/v1/directions", bearer(acct.Secret), "order-2", heavy); got.status != 409 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got.status != 200 {
		t.Fatalf("the retry after giving up: %d %s", got.status, got.raw)
	}
	p.stop(t)
	a := showAccount(t, dsn, acct.ID)
	t.Logf("the first attempt, given up after 5 ms, got %d; its retry was replayed: %q", gave.status, got.header.Get("Idempotent-Replayed"))
	if a.Usage.Requests != 2 || a.Usage.AllTime != 2+5 {
		t.Errorf("charged %d credits for %d requests, want 7 for 2 (order-1 once, order-2 once)", a.Usage.AllTime, a.Usage.Requests)
	}
	if _, missing := usageOf(t, dsn, []string{first.body["request_id"].(string), got.body["request_id"].(string)}); len(missing) > 0 {
		t.Errorf("no usage record for %v", missing)
	}

	// The answer outlives a restart.
	p = serveMetered(t, dsn)
	if r := p.sendKey(t, "/v1/directions", bearer(acct.Secret), "order-1", body); r.raw != first.raw {
		t.Errorf("after a restart: %d %.200s, want the first answer", r.status, r.raw)
	}
}

// TestIdempotencyKeyTwoReplicas: two mapd processes sharing a PostgreSQL
// ledger; 16 concurrent copies of one request with one key, sent to both,
// are charged once, and every 200 is the same answer.
func TestIdempotencyKeyTwoReplicas(t *testing.T) {
	dsn, _ := pgSchemaDSN(t)
	acct := createAccount(t, dsn, 10_000)
	replicas := []*mapdProc{serveMetered(t, dsn, "--rate-limit", "100000"), serveMetered(t, dsn, "--rate-limit", "100000")}
	body := directionsBody(20) // 2 credits

	first := replicas[0].sendKey(t, "/v1/directions", bearer(acct.Secret), "pg-1", body)
	retry := replicas[1].sendKey(t, "/v1/directions", bearer(acct.Secret), "pg-1", body)
	if first.status != 200 || retry.raw != first.raw || retry.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("first %d, retry on the other replica %d: %.200s", first.status, retry.status, retry.raw)
	}
	checkProblem(t, replicas[1].sendKey(t, "/v1/directions", bearer(acct.Secret), "pg-1", directionsBody(21)), "idempotency-key-reused", "")

	var mu sync.Mutex
	counts, answers := statusCounts{}, map[string]int{}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			r := replicas[i%2].sendKey(t, "/v1/directions", bearer(acct.Secret), "pg-2", body)
			mu.Lock()
			defer mu.Unlock()
			counts[fmt.Sprint(r.status)]++
			if r.status == 200 {
				answers[r.body["request_id"].(string)]++
			} else if r.status == 409 && r.header.Get("Retry-After") != "1" {
				t.Errorf("409 without Retry-After: %s", r.raw)
			}
		})
	}
	wg.Wait()
	t.Logf("16 concurrent copies: %s; answers %v", counts, answers)
	if counts["200"]+counts["409"] != 16 || len(answers) != 1 {
		t.Errorf("16 concurrent copies: %s, %d distinct answers; want only 200s and 409s, one answer", counts, len(answers))
	}
	if a := showAccount(t, dsn, acct.ID); a.Usage.Requests != 2 || a.Usage.AllTime != 4 {
		t.Errorf("charged %d credits for %d requests, want 4 for 2", a.Usage.AllTime, a.Usage.Requests)
	}
}

// sendKey posts body with an Idempotency-Key; every answer is checked
// against the OpenAPI document.
func (p *mapdProc) sendKey(t *testing.T, path, authz, key, body string) reply {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, p.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", authz)
	req.Header.Set("Idempotency-Key", key)
	resp, err := meterClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	validateResponse(t, http.MethodPost, path, resp.StatusCode, resp.Header, raw)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if err := json.Unmarshal(raw, &r.body); err != nil {
		t.Fatalf("POST %s: %d body is not JSON: %v", path, resp.StatusCode, err)
	}
	return r
}

// postKeyGivingUp is postGivingUp with an Idempotency-Key.
func postKeyGivingUp(t *testing.T, base, authz, key, body string, timeout time.Duration) gaveUp {
	return postGivingUp(t, base, authz+"\r\nIdempotency-Key: "+key, body, timeout)
}
