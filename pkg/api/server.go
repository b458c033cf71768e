package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/release"
)

// DefaultMaxBodyBytes bounds a request body: a 100×100 matrix request with
// generous whitespace is about 10 KB, so 1 MiB refuses only abuse.
const DefaultMaxBodyBytes = 1 << 20

// Config configures a Server; zero values are documented per field.
type Config struct {
	Releases     *release.Holder // required: the data being served
	MaxBodyBytes int             // 0 means DefaultMaxBodyBytes
	Log          *slog.Logger    // nil discards logs
}

// Server answers the /v1 API.
type Server struct {
	cfg   Config
	paths map[string]path
}

// path is one endpoint: the method it takes and its handler.
type path struct {
	method  string
	handler fasthttp.RequestHandler
}

// New makes a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Releases == nil {
		return nil, errors.New("api: Config.Releases is required")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, paths: map[string]path{}}
	for p, h := range computePaths(s) {
		s.paths[p] = path{fasthttp.MethodPost, h}
	}
	return s, nil
}

// HTTPServer returns a fasthttp server for s with the body limit applied and
// transport-level failures reported as problems.
func (s *Server) HTTPServer() *fasthttp.Server {
	return &fasthttp.Server{
		Handler:               s.Handle,
		Name:                  "mapd",
		MaxRequestBodySize:    s.cfg.MaxBodyBytes,
		ReadTimeout:           30 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           2 * time.Minute,
		NoDefaultServerHeader: false,
		ErrorHandler:          s.transportError,
	}
}

// Handle routes one request.
func (s *Server) Handle(ctx *fasthttp.RequestCtx) {
	r, ok := s.paths[string(ctx.Path())]
	switch {
	case !ok:
		s.problem(ctx, KindNotFound, fmt.Sprintf("no endpoint at %s; see /v1/openapi.json", ctx.Path()), nil)
	case string(ctx.Method()) != r.method:
		ctx.Response.Header.Set("Allow", r.method)
		s.problem(ctx, KindMethodNotAllowed, fmt.Sprintf("%s takes %s, not %s", ctx.Path(), r.method, ctx.Method()), nil)
	default:
		r.handler(ctx)
	}
}

// transportError answers requests fasthttp could not parse, most often a
// body over the limit.
func (s *Server) transportError(ctx *fasthttp.RequestCtx, err error) {
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		s.problem(ctx, KindInvalidRequest, fmt.Sprintf("request body exceeds the limit of %d bytes", s.cfg.MaxBodyBytes), nil)
		return
	}
	s.problem(ctx, KindInvalidRequest, "malformed HTTP request", nil)
}

// problem writes a problem response with a fresh request id.
func (s *Server) problem(ctx *fasthttp.RequestCtx, k Kind, detail string, errs []FieldError) {
	WriteProblem(ctx, NewProblem(k, detail, requestID(ctx), errs))
}

// requestID returns the id of this request, making it on first use.
func requestID(ctx *fasthttp.RequestCtx) string {
	if v, ok := ctx.UserValue(requestIDKey{}).(string); ok {
		return v
	}
	id := "req_" + ulid.Make().String()
	ctx.SetUserValue(requestIDKey{}, id)
	return id
}

type requestIDKey struct{}

// isJSON accepts application/json with optional parameters (charset).
func isJSON(ct []byte) bool {
	mt, _, _ := bytes.Cut(ct, []byte(";"))
	return bytes.EqualFold(bytes.TrimSpace(mt), []byte("application/json"))
}

// requestContext bounds a computation by the request's own deadline.
func requestContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}
