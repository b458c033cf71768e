package api

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// Requests fasthttp cannot parse (a duplicate or negative Content-Length,
// bare LF line endings, a header without a colon, a NUL byte) are logged
// here, never by fasthttp's default logger, which printed the raw request,
// its Authorization header included (issue 19). Two rules:
//
//   - No line holds request bytes or a header value: only a reason chosen
//     from a fixed list (transportReason), addresses and counts. Even the
//     error's text is dropped, because fasthttp quotes the request in it.
//   - Lines are rate-limited (transportLogBurst, then one per
//     transportLogEvery), because anyone can send malformed requests without
//     a key: 1,000 of them added 804 KB of log before. The next line that
//     passes counts the ones left out ("suppressed").
//
// Metrics still count every such request (operation "unknown" or the
// endpoint's, status 400).
const (
	transportLogBurst = 10
	transportLogEvery = time.Second
)

// lineLimiter is a token bucket for log lines: burst lines at once, then one
// per every; it counts the lines it refused. The next line written reports
// that count, and if none comes within every, flush reports it on its own,
// so a flood that stops is still seen. Safe for concurrent use.
type lineLimiter struct {
	mu         sync.Mutex
	burst      float64
	every      time.Duration
	tokens     float64
	last       time.Time
	suppressed int64
	flushing   bool
	flush      func(suppressed int64) // writes the count of refused lines
}

func newLineLimiter(burst int, every time.Duration, flush func(suppressed int64)) *lineLimiter {
	return &lineLimiter{burst: float64(burst), every: every, tokens: float64(burst), flush: flush}
}

// allow reports whether a line may be written now and, if so, how many were
// refused since the last one written.
func (l *lineLimiter) allow(now time.Time) (ok bool, suppressed int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refill(now)
	if l.tokens < 1 {
		l.suppressed++
		if !l.flushing {
			l.flushing = true
			time.AfterFunc(l.every, l.flushSuppressed)
		}
		return false, 0
	}
	l.tokens--
	suppressed, l.suppressed = l.suppressed, 0
	return true, suppressed
}

func (l *lineLimiter) refill(now time.Time) {
	if !l.last.IsZero() {
		l.tokens = min(l.burst, l.tokens+float64(now.Sub(l.last))/float64(l.every))
	}
	l.last = now
}

// flushSuppressed reports the lines refused since the last one written, if
// no line has reported them meanwhile.
func (l *lineLimiter) flushSuppressed() {
	l.mu.Lock()
	l.flushing = false
	l.refill(time.Now())
	n := l.suppressed
	if n == 0 || l.tokens < 1 {
		l.mu.Unlock()
		return
	}
	l.tokens--
	l.suppressed = 0
	l.mu.Unlock()
	l.flush(n)
}

// logTransport writes one rate-limited line about a request or connection
// fasthttp could not serve. attrs must hold no request bytes.
func (s *Server) logTransport(msg, reason string, attrs ...slog.Attr) {
	bg := context.Background()
	if !s.cfg.Log.Enabled(bg, slog.LevelWarn) {
		return
	}
	ok, suppressed := s.transportLines.allow(time.Now())
	if !ok {
		return
	}
	attrs = append(attrs, slog.String("reason", reason))
	if suppressed > 0 {
		attrs = append(attrs, slog.Int64("suppressed", suppressed))
	}
	s.cfg.Log.LogAttrs(bg, slog.LevelWarn, msg, attrs...)
}

// logSuppressed reports transport lines the limiter left out.
func (s *Server) logSuppressed(n int64) {
	s.cfg.Log.LogAttrs(context.Background(), slog.LevelWarn, "malformed requests or connection errors not logged",
		slog.Int64("suppressed", n))
}

// transportReason names what went wrong in words of our own: fasthttp's
// error texts quote the request, so they are never logged.
func transportReason(err error) string {
	var small *fasthttp.ErrSmallBuffer
	var ne net.Error
	switch {
	case err == nil:
		return "unknown"
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return "body too large"
	case errors.As(err, &small):
		return "header too large"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "connection closed mid-request"
	}
	return "unparsable request"
}

// fasthttpLogger is fasthttp.Server's Logger. fasthttp calls it for
// connections it gives up on, with a format such as "error when serving
// connection %q<->%q: %v" whose last argument quotes the request. It keeps
// the format's words up to the first verb as the event, the addresses and
// numbers among the arguments, and turns an error into a transportReason.
type fasthttpLogger struct{ s *Server }

func (l fasthttpLogger) Printf(format string, args ...any) {
	event, _, _ := strings.Cut(format, "%")
	event = strings.TrimRight(strings.TrimSpace(event), ":,")
	attrs := []slog.Attr{slog.String("event", event)}
	reason := "connection error"
	for _, a := range args {
		switch v := a.(type) {
		case error:
			reason = transportReason(v)
		case net.Addr:
			if strings.Contains(format, "<->") && !hasAttr(attrs, "local") {
				attrs = append(attrs, slog.String("local", v.String()))
			} else {
				attrs = append(attrs, slog.String("remote", v.String()))
			}
		case int:
			attrs = append(attrs, slog.Int("n", v))
		}
	}
	l.s.logTransport("connection error", reason, attrs...)
}

func hasAttr(attrs []slog.Attr, key string) bool {
	for _, a := range attrs {
		if a.Key == key {
			return true
		}
	}
	return false
}
