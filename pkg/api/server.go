package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/isochrone"
	"github.com/mapsco/maps/pkg/serving"
)

// DefaultMaxBodyBytes bounds a request body: a 100×100 matrix request with
// generous whitespace is about 10 KB, so 1 MiB refuses only abuse.
const DefaultMaxBodyBytes = 1 << 20

// Config configures a Server; zero values are documented per field.
type Config struct {
	Releases     *serving.Holder // required: the data being served
	MaxBodyBytes int             // 0 means DefaultMaxBodyBytes
	Log          *slog.Logger    // nil discards logs; one line per request at Info

	// Ready is checked by GET /v1/health/ready after "a release is mapped":
	// metering plugs "the ledger answers" in here. nil means no further check.
	// It gets a context bounded by ReadyTimeout and should name what failed.
	Ready func(context.Context) error

	Metrics      *Metrics      // nil means no metrics
	Deprecations []Deprecation // paths announced as deprecated (spec §9.4); each must be an endpoint
	Started      time.Time     // process start, for uptime in /v1/status; zero means when New runs

	// Metering authenticates, rate-limits and charges every compute request
	// (meter.go). nil serves unmetered: tests of the engine only; mapd serve
	// always sets it.
	Metering *Metering

	// Mounts serve paths outside /v1 (mount.go); nil serves none.
	Mounts []Mount

	// ComputeTimeout bounds a compute request from its arrival to its
	// answer being ready (admission queue, computation, charge): past it the
	// request answers 503 and costs nothing. 0 means DefaultComputeTimeout.
	ComputeTimeout time.Duration
	// Admission bounds concurrent computations and their queue
	// (admission.go); the zero value means its defaults.
	Admission Admission
}

// DefaultComputeTimeout is Config.ComputeTimeout's default: the largest
// requests take well under a second on a country, so a request still
// computing after 10 s is stuck behind others, and its client has most
// likely given up.
const DefaultComputeTimeout = 10 * time.Second

// ReadyTimeout bounds Config.Ready: a load balancer polls readiness every few
// seconds and a ledger that takes longer than this is not answering.
const ReadyTimeout = 2 * time.Second

// Server answers the /v1 API. It is safe for concurrent use.
type Server struct {
	cfg   Config
	paths map[string]path
	mount []path // Config.Mounts, matched by prefix after paths
	// transportLines rate-limits the lines about requests fasthttp could
	// not parse (transportlog.go).
	transportLines *lineLimiter
	admission      *admitter
	// isochrones keeps the scratch space isochrone requests reuse.
	isochrones *isochrone.Engine
}

// path is one endpoint: its operation name (in logs and metrics), the method
// it takes, its handler and the headers added to every response.
type path struct {
	operation string
	method    string
	handler   fasthttp.RequestHandler
	headers   [][2]string
	prefix    string // of a mount: the paths it serves
}

// opUnknown names requests to no endpoint in logs and metrics; the raw path
// is never a label, so clients cannot grow the metric set.
const opUnknown = "unknown"

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
	if cfg.Started.IsZero() {
		cfg.Started = time.Now()
	}
	if cfg.ComputeTimeout <= 0 {
		cfg.ComputeTimeout = DefaultComputeTimeout
	}
	s := &Server{cfg: cfg, paths: map[string]path{}, admission: newAdmitter(cfg.Admission), isochrones: new(isochrone.Engine)}
	s.transportLines = newLineLimiter(transportLogBurst, transportLogEvery, s.logSuppressed)
	for p, h := range computePaths(s) {
		s.paths[p] = path{operation: strings.TrimPrefix(p, "/v1/"), method: fasthttp.MethodPost, handler: h}
	}
	for p, e := range servicePaths(s) {
		s.paths[p] = e
	}
	if err := s.applyDeprecations(cfg.Deprecations); err != nil {
		return nil, err
	}
	if err := s.addMounts(cfg.Mounts); err != nil {
		return nil, err
	}
	return s, nil
}

// Paths returns every endpoint path with its method, for documentation checks.
func (s *Server) Paths() map[string]string {
	out := make(map[string]string, len(s.paths))
	for p, e := range s.paths {
		out[p] = e.method
	}
	return out
}

// HTTPServer returns a fasthttp server for s with the body limit applied and
// transport-level failures reported as problems. Serve it on
// Listener(ln), so that idle connections are closed quietly.
func (s *Server) HTTPServer() *fasthttp.Server {
	return &fasthttp.Server{
		Handler:            s.Handle,
		Name:               "mapd",
		MaxRequestBodySize: s.cfg.MaxBodyBytes,
		// A directions answer is a few KiB: with fasthttp's default 4 KiB
		// buffer most went out in two writes, waking the client twice; one
		// write saves mapd and the client 7–8 % of their CPU per request
		// (docs/benchmarks-history.md, "One write per answer").
		WriteBufferSize:       16 << 10,
		ReadTimeout:           readTimeout,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           2 * time.Minute,
		CloseOnShutdown:       true, // answers in flight at SIGTERM tell clients to reconnect elsewhere
		NoDefaultServerHeader: false,
		ErrorHandler:          s.transportError,
		// fasthttp's own lines go through slog, without request bytes
		// (transportlog.go); SecureErrorLogMessage keeps the request out
		// of its error texts as well, should one ever be printed.
		Logger:                fasthttpLogger{s},
		SecureErrorLogMessage: true,
	}
}

// Handle routes one request, then logs and counts it.
func (s *Server) Handle(ctx *fasthttp.RequestCtx) {
	start := time.Now()
	r, ok := s.paths[string(ctx.Path())]
	if !ok {
		r, ok = s.mounted(ctx.Path())
	}
	setHeaders(ctx, r.headers)
	switch {
	case !ok:
		r.operation = opUnknown
		s.problem(ctx, KindNotFound, fmt.Sprintf("no endpoint at %s; see /v1/openapi.json", ctx.Path()), nil)
	case !allows(r.method, ctx.Method()):
		ctx.Response.Header.Set("Allow", allowHeader(r.method))
		s.problem(ctx, KindMethodNotAllowed, fmt.Sprintf("%s takes %s, not %s", ctx.Path(), r.method, methodName(ctx.Method())), nil)
	default:
		r.handler(ctx)
	}
	s.observe(ctx, r.operation, time.Since(start))
}

// transportError answers requests fasthttp could not parse, most often a
// body over the limit. It counts them like any request but logs them
// rate-limited and without a byte of the request (transportlog.go): anyone
// can send them, with a key in them, without a key being valid.
func (s *Server) transportError(ctx *fasthttp.RequestCtx, err error) {
	if idleTimeout(ctx, err) {
		// Nothing of a request was read before ReadTimeout (idleconn.go):
		// closing the connection here makes fasthttp's write of the error
		// response fail, so the client sees a clean close, as after
		// IdleTimeout on a kept-alive connection.
		ctx.Conn().Close()
		return
	}
	start := time.Now()
	setHeaders(ctx, nil)
	var ne net.Error
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		drainBody(ctx)
		s.problem(ctx, KindInvalidRequest, fmt.Sprintf("request body exceeds the limit of %d bytes", s.cfg.MaxBodyBytes), nil)
	case errors.As(err, &ne) && ne.Timeout():
		s.problem(ctx, KindInvalidRequest, fmt.Sprintf("the request was not received whole within %v", readTimeout), nil)
	default:
		s.problem(ctx, KindInvalidRequest, "malformed HTTP request", nil)
	}
	op := opUnknown
	if r, ok := s.paths[string(ctx.Path())]; ok {
		op = r.operation
	}
	took := time.Since(start)
	if s.cfg.Metrics != nil {
		s.cfg.Metrics.observe(op, ctx.Response.StatusCode(), took, 0)
	}
	s.logTransport("malformed request", transportReason(err), slog.String("request_id", requestID(ctx)),
		slog.String("operation", op), slog.Int("status", ctx.Response.StatusCode()),
		slog.String("remote", ctx.RemoteAddr().String()))
}

// readTimeout bounds reading a request, from its first byte (a new
// connection's idle wait included) to its body's last.
const readTimeout = 30 * time.Second

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
