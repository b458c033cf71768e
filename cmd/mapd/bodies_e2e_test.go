package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawPost is a client that writes its whole request, headers and body, in
// one blocking write before it reads anything (as Python's http.client
// does), then reads the answer. A write error (reset, broken pipe) is
// returned, as such a client would see it.
func rawPost(t *testing.T, addr string, headers map[string]string, body []byte) (status int, answer string, err error) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	var req bytes.Buffer
	fmt.Fprintf(&req, "POST /v1/elevation HTTP/1.1\r\nHost: mapd\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	for k, v := range headers {
		fmt.Fprintf(&req, "%s: %s\r\n", k, v)
	}
	req.WriteString("\r\n")
	req.Write(body)
	if _, err := c.Write(req.Bytes()); err != nil {
		return 0, "", fmt.Errorf("writing the request: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, "", fmt.Errorf("reading the answer: %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

// bigElevationBody is valid JSON of about n bytes (padded with spaces).
func bigElevationBody(n int) []byte {
	b := []byte(elevationBody(1))
	return append(b[:len(b)-1], append(bytes.Repeat([]byte(" "), max(0, n-len(b))), '}')...)
}

// TestOversizedBodySeesThe400: bodies over the 1 MiB limit, written whole
// before the client reads, get the 400 and its problem document, not a
// reset; nothing is charged, and mapd serves on.
func TestOversizedBodySeesThe400(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1000)
	p := serveMetered(t, dsn)
	addr := strings.TrimPrefix(p.base, "http://")
	auth := map[string]string{"Authorization": bearer(acct.Secret)}
	for _, n := range []int{1<<20 + 1, 2 << 20, 8 << 20} {
		status, answer, err := rawPost(t, addr, auth, bigElevationBody(n))
		if err != nil || status != 400 || !strings.Contains(answer, "exceeds the limit of 1048576 bytes") {
			t.Errorf("a %d-byte body written whole: %d %s %v; want the 400 saying the limit", n, status, answer, err)
		}
	}
	// Just under the limit is served.
	if status, answer, err := rawPost(t, addr, auth, bigElevationBody(1<<20)); err != nil || status != 200 {
		t.Errorf("a body of exactly 1 MiB: %d %s %v", status, answer, err)
	}
	if a := showAccount(t, dsn, acct.ID); a.Usage.Requests != 1 {
		t.Errorf("%d requests charged, want only the 1 MiB one", a.Usage.Requests)
	}
}

// TestContentEncoding: a body in a coding mapd does not decode is a 400
// that says so, never read as plain (nor charged); gzip is inflated, within
// the same 1 MiB once inflated.
func TestContentEncoding(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1000)
	p := serveMetered(t, dsn)
	addr := strings.TrimPrefix(p.base, "http://")
	gz := func(b []byte) []byte {
		var out bytes.Buffer
		w := gzip.NewWriter(&out)
		w.Write(b)
		w.Close()
		return out.Bytes()
	}
	plain := []byte(elevationBody(3))
	for _, c := range []struct {
		coding string
		body   []byte
		status int
		want   string
	}{
		{"br", plain, 400, `Content-Encoding \"br\" is not supported`},
		{"deflate", plain, 400, `Content-Encoding \"deflate\" is not supported`},
		{"gzip, br", gz(plain), 400, "is not supported"},
		{"gzip", plain, 400, "the body is not gzip data"},
		{"gzip", gz(bigElevationBody(1<<20 + 1)), 400, "exceeds the limit of 1048576 bytes once inflated"},
		{"gzip", gz(plain), 200, `"elevations_m"`},
		{"GZIP", gz(plain), 200, `"elevations_m"`},
		{"identity", plain, 200, `"elevations_m"`},
	} {
		status, answer, err := rawPost(t, addr, map[string]string{"Authorization": bearer(acct.Secret), "Content-Encoding": c.coding}, c.body)
		if err != nil || status != c.status || !strings.Contains(answer, c.want) {
			t.Errorf("Content-Encoding %s: %d %s %v; want %d with %s", c.coding, status, answer, err, c.status, c.want)
		}
		if status == 400 {
			var prob struct{ Type, Detail string }
			if json.Unmarshal([]byte(answer), &prob) != nil || !strings.HasSuffix(prob.Type, "invalid-request") {
				t.Errorf("Content-Encoding %s: not a problem document: %s", c.coding, answer)
			}
		}
	}
	if a := showAccount(t, dsn, acct.ID); a.Usage.Requests != 3 {
		t.Errorf("%d requests charged, want the 3 answered 200", a.Usage.Requests)
	}
}
