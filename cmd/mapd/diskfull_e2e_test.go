package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// TestMeteringDiskFull: issue 19 item 5 against mapd. The embedded ledger
// lives on a small tmpfs, which the test fills: metering answers 503 (never
// an unmetered 200) and readiness names the cause; once the space is freed,
// mapd answers 200 again by itself within seconds, without a restart, and
// its log has one ERROR when it went down and one INFO when it came back.
// Every 200 has its usage record.
func TestMeteringDiskFull(t *testing.T) {
	dir := ledgertest.SmallDisk(t, 16<<20)
	dsn := filepath.Join(dir, "ledger.db")
	acct := createAccount(t, dsn, 1_000_000, "--daily", "0")
	s := serveMetered(t, dsn, "--rate-limit", "1000000")
	var ok []string
	post := func() reply {
		r := s.call(t, "/v1/elevation", bearer(acct.Secret), elevationBody(1))
		if r.status == 200 {
			ok = append(ok, r.body["request_id"].(string))
		}
		return r
	}
	if r := post(); r.status != 200 {
		t.Fatalf("before the disk filled: %d %s", r.status, r.raw)
	}

	filler := ledgertest.Fill(t, dir)
	var first reply
	for i := 0; ; i++ {
		if first = post(); first.status == 503 {
			break
		}
		if first.status != 200 || i == 20_000 {
			t.Fatalf("request %d on a full disk: %d %s", i, first.status, first.raw)
		}
		if i%200 == 199 {
			ready(t, s) // a reader hurries the ledger's writes to bbolt
		}
	}
	for i := range 20 {
		if r := post(); r.status != 503 {
			t.Fatalf("request %d while the disk is full: %d %s, want 503", i, r.status, r.raw)
		}
	}
	if code, body := ready(t, s); code != 503 || !strings.Contains(body, "no space left on device") {
		t.Errorf("readiness on a full disk: %d %s", code, body)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	freed := time.Now()
	for post().status != 200 {
		if time.Since(freed) > 10*time.Second {
			t.Fatalf("still 503 10 s after space was freed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d answered 200 (some on the full disk, before the ledger had to write), then 503; 200 again %v after space was freed",
		len(ok), time.Since(freed).Round(time.Millisecond))
	if code, body := ready(t, s); code != 200 {
		t.Errorf("readiness after recovery: %d %s", code, body)
	}
	s.stop(t)
	log := s.logText()
	if n, m := strings.Count(log, `"level":"ERROR","msg":"ledger: cannot write`), strings.Count(log, `"msg":"ledger: writes succeed again`); n != 1 || m != 1 {
		t.Errorf("mapd's log has %d ledger ERROR and %d recovery lines, want one each:\n%s", n, m, log)
	}
	if _, missing := usageOf(t, dsn, ok); len(missing) > 0 {
		t.Errorf("%d requests answered 200 have no usage record: %v", len(missing), missing)
	}
	verifyLedger(t, dsn)
}

// ready asks mapd's readiness.
func ready(t *testing.T, s *mapdProc) (int, string) {
	t.Helper()
	resp, err := http.Get(s.base + "/v1/health/ready")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	n, _ := resp.Body.Read(buf)
	b.Write(buf[:n])
	return resp.StatusCode, b.String()
}
