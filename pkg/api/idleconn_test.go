package api

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"
)

// TestIdleConnectionClosedQuietly (issue 34 item 7), on a real socket: a
// connection that sends nothing for ReadTimeout is closed without a byte
// (before, an unsolicited "400 malformed HTTP request", which a pooled
// client sending at that moment took for its answer), and nothing is
// logged; a request that started and stalled gets its 400, which says
// why.
func TestIdleConnectionClosedQuietly(t *testing.T) {
	holder, _ := onDiskHolder(t, "car")
	var logs bytes.Buffer
	s, err := New(Config{Releases: holder, Log: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer()
	hs.ReadTimeout, hs.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go hs.Serve(Listener(ln))
	read := func(send string) string {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if send != "" {
			io.WriteString(c, send)
		}
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := io.ReadAll(c)
		if err != nil {
			t.Fatalf("reading after %q: %v", send, err)
		}
		return string(got)
	}
	if got := read(""); got != "" {
		t.Errorf("an idle new connection received %q, want a quiet close", got)
	}
	if strings.Contains(logs.String(), "malformed") {
		t.Errorf("the idle connection was logged: %s", logs.String())
	}
	got := read("POST /v1/directions HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{")
	if !strings.HasPrefix(got, "HTTP/1.1 400") || !strings.Contains(got, "not received whole within") {
		t.Errorf("a stalled request received %.300q, want a 400 saying it was not received in time", got)
	}
	// A kept-alive connection between requests closes quietly too.
	if got := read("GET /v1/health/live HTTP/1.1\r\nHost: x\r\n\r\n"); strings.Count(got, "HTTP/1.1") != 1 || !strings.HasPrefix(got, "HTTP/1.1 200") {
		t.Errorf("a kept-alive connection after one answer received %.300q, want the answer and then a quiet close", got)
	}
}

// TestMethodLoggedAsKnownOrOther (issue 34 item 6): the access log writes
// the method as one of the known methods or "other", never the client's
// token (a key sent as the method landed in the log, 4 KiB a line).
func TestMethodLoggedAsKnownOrOther(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GET", "GET"}, {"POST", "POST"}, {"HEAD", "HEAD"}, {"OPTIONS", "OPTIONS"},
		{"get", "other"}, {"sk_" + strings.Repeat("A", 49), "other"}, {strings.Repeat("X", 4000), "other"}, {"", "other"},
	} {
		if got := methodName([]byte(tc.in)); got != tc.want {
			t.Errorf("methodName(%.20q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	holder, _ := onDiskHolder(t, "car")
	var logs bytes.Buffer
	s, err := New(Config{Releases: holder, Log: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go s.HTTPServer().Serve(ln)
	secret := "SK" + strings.Repeat("Q", 3000)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, secret+" /v1/directions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	answer, _ := io.ReadAll(c)
	c.Close()
	if strings.Contains(logs.String(), "QQQQ") || strings.Contains(string(answer), "QQQQ") {
		t.Errorf("the client's method token reached the log or the answer:\nlog %.300s\nanswer %.300s", logs.String(), answer)
	}
	if !strings.Contains(logs.String(), `"method":"other"`) {
		t.Errorf("the request's line does not name the method \"other\": %.500s", logs.String())
	}
}
