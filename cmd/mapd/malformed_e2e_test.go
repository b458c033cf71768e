package main

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// malformedRequests are requests fasthttp cannot parse, each carrying a real
// secret key (issue 19, item 1): its default logger printed the raw request,
// key included, for every one of them.
var malformedRequests = []struct{ name, raw string }{
	{"duplicate Content-Length", "POST /v1/elevation HTTP/1.1\r\nHost: mapd\r\nAuthorization: Bearer KEY\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"},
	{"negative Content-Length", "POST /v1/elevation HTTP/1.1\r\nHost: mapd\r\nAuthorization: Bearer KEY\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}"},
	// fasthttp waits for a CRLF CRLF that never comes, then logged the
	// request when the client gave up.
	{"bare LF line endings", "POST /v1/elevation HTTP/1.1\nHost: mapd\nAuthorization: Bearer KEY\nContent-Type: application/json\nContent-Length: 2\nTransfer-Encoding: chunked, gzip\n\n{}"},
	{"header without a colon", "POST /v1/elevation HTTP/1.1\r\nHost: mapd\r\nAuthorization: Bearer KEY\r\nthis line has no colon\r\nContent-Length: 2\r\n\r\n{}"},
	{"NUL in a header", "POST /v1/elevation HTTP/1.1\r\nHost: mapd\r\nAuthorization: Bearer KEY\r\nX-Note: a\x00b\r\nContent-Length: 2\r\n\r\n{}"},
	{"NUL in the request line", "POST /v1/ele\x00vation HTTP/1.1\r\nHost: mapd\r\nAuthorization: Bearer KEY\r\nContent-Length: 2\r\n\r\n{}"},
	{"garbage request line", "\x16\x03\x01 Authorization: Bearer KEY\r\n\r\n"},
}

// TestMalformedRequestsNeverLogTheKey sends each malformed request over raw
// TCP with a real key: every one is answered 400 (or the connection is
// closed), the key never appears in mapd's log, and 1,000 of them add only a
// few rate-limited lines.
func TestMalformedRequestsNeverLogTheKey(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1000)
	p := serveMetered(t, dsn)
	addr := strings.TrimPrefix(p.base, "http://")
	for _, c := range malformedRequests {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			status := sendRaw(t, addr, strings.ReplaceAll(c.raw, "KEY", acct.Secret))
			t.Logf("answered %d in %v", status, time.Since(start))
			if status != 0 && status != http.StatusBadRequest {
				t.Errorf("answered %d, want 400 or a closed connection", status)
			}
		})
	}
	// mapd still serves, and logged why it refused, without the key.
	if r := p.call(t, "/v1/elevation", bearer(acct.Secret), elevationBody(1)); r.status != 200 {
		t.Fatalf("after the malformed requests: %d %s", r.status, r.raw)
	}
	waitFor(t, 2*time.Second, func() bool { return strings.Contains(p.logText(), `"msg":"malformed request"`) })
	before := len(p.logText())
	for i := range 1000 {
		c := malformedRequests[i%len(malformedRequests)]
		sendRaw(t, addr, strings.ReplaceAll(c.raw, "KEY", acct.Secret))
	}
	if r := p.call(t, "/v1/elevation", bearer(acct.Secret), elevationBody(1)); r.status != 200 {
		t.Fatalf("after 1,000 malformed requests: %d %s", r.status, r.raw)
	}
	// The count of the lines left out is logged within a second.
	waitFor(t, 3*time.Second, func() bool { return strings.Contains(p.logText()[before:], `"suppressed":`) })
	log := p.logText()
	for _, secret := range []string{acct.Secret, acct.Secret[3:20]} {
		if strings.Contains(log, secret) {
			t.Fatalf("the key is in mapd's log:\n%s", log)
		}
	}
	grown := len(log) - before
	t.Logf("1,000 malformed requests added %d bytes of log", grown)
	if grown > 16<<10 {
		t.Errorf("1,000 malformed requests added %d bytes of log, want at most 16 KiB (rate-limited lines):\n%s", grown, log[before:])
	}
}

// sendRaw writes raw on a new connection, half-closes it (so that a
// request mapd is still waiting to complete ends at once, as when a client
// gives up) and returns the status of the answer, or 0 when mapd closed the
// connection without one.
func sendRaw(t *testing.T, addr, raw string) int {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte(raw)); err != nil {
		return 0
	}
	c.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitFor polls cond every 10 ms until it holds or the timeout passes.
func waitFor(t *testing.T, timeout time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("condition not met within %v", timeout)
}
