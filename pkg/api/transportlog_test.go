package api

import (
	"bytes"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"
)

func TestLineLimiter(t *testing.T) {
	l := newLineLimiter(3, time.Second, func(int64) {})
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		if ok, n := l.allow(t0); !ok || n != 0 {
			t.Fatalf("line %d of the burst: allowed %v, suppressed %d", i, ok, n)
		}
	}
	for i := range 5 {
		if ok, _ := l.allow(t0.Add(time.Duration(i) * 100 * time.Millisecond)); ok {
			t.Fatalf("line %d beyond the burst was allowed", i)
		}
	}
	if ok, n := l.allow(t0.Add(1100 * time.Millisecond)); !ok || n != 5 {
		t.Fatalf("a second later: allowed %v, suppressed %d; want true, 5", ok, n)
	}
}

func TestLineLimiterFlushesTheCount(t *testing.T) {
	got := make(chan int64, 1)
	l := newLineLimiter(1, 20*time.Millisecond, func(n int64) { got <- n })
	now := time.Now()
	l.allow(now)
	l.allow(now)
	l.allow(now)
	select {
	case n := <-got:
		if n != 2 {
			t.Fatalf("flushed %d, want 2", n)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the count of refused lines was never reported")
	}
}

// TestFasthttpLoggerDropsTheRequest feeds the logger what fasthttp passes for
// a request it cannot parse: an error quoting the request, key included.
func TestFasthttpLoggerDropsTheRequest(t *testing.T) {
	var buf bytes.Buffer
	s := &Server{cfg: Config{Log: slog.New(slog.NewJSONHandler(&buf, nil))}}
	s.transportLines = newLineLimiter(10, time.Second, s.logSuppressed)
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 50000}
	err := errors.New(`error when reading request headers: cannot find whitespace in the first line of response "POST / HTTP/1.1\r\nAuthorization: Bearer sk_SECRET\r\n"`)
	fasthttpLogger{s}.Printf("error when serving connection %q<->%q: %v", local, remote, err)
	line := buf.String()
	if strings.Contains(line, "sk_SECRET") || strings.Contains(line, "Authorization") {
		t.Fatalf("the request reached the log: %s", line)
	}
	for _, want := range []string{`"event":"error when serving connection"`, `"local":"127.0.0.1:8080"`, `"remote":"127.0.0.1:50000"`, `"reason":"unparsable request"`} {
		if !strings.Contains(line, want) {
			t.Errorf("line lacks %s: %s", want, line)
		}
	}
}
