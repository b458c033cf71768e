package api

import (
	"io"
	"log/slog"
	"testing"

	"github.com/valyala/fasthttp"
)

// BenchmarkHandleLive measures what every request pays for routing, headers,
// metrics and the JSON access log, on the cheapest endpoint.
func BenchmarkHandleLive(b *testing.B) {
	holder := fakeHolder("car")
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"bare", Config{Releases: holder}},
		{"metrics+log", Config{Releases: holder, Metrics: NewMetrics(holder), Log: slog.New(slog.NewJSONHandler(io.Discard, nil))}},
	} {
		s, _ := New(c.cfg)
		b.Run(c.name, func(b *testing.B) {
			ctx := &fasthttp.RequestCtx{}
			ctx.Request.Header.SetMethod("GET")
			ctx.Request.SetRequestURI(PathLive)
			b.ReportAllocs()
			for b.Loop() {
				ctx.Response.Reset()
				ctx.ResetUserValues()
				s.Handle(ctx)
			}
		})
	}
}
