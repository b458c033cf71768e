package api

// Problem details (RFC 9457) for every error response, section 7 of the API specification.

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/valyala/fasthttp"
)

// ErrorsBase is the URI prefix of every problem type.
const ErrorsBase = "https://docs.mapsco.dev/problems/"

// ProblemContentType is the media type of every error body.
const ProblemContentType = "application/problem+json"

// Limits of a problem body, spec section 7.
const (
	MaxTitleLength    = 200
	MaxDetailLength   = 1000
	MaxInstanceLength = 64
	MaxFieldErrors    = 50
	MaxFieldLength    = 200
	MaxMessageLength  = 200
)

// Kind identifies one problem category.
type Kind int

// The problem kinds. This is the one place listing every problem type the service answers with:
//
//	Kind                     Status  Type (under ErrorsBase)  Title
//	KindInvalidRequest       400     invalid-request          Invalid request
//	KindUnauthorized         401     unauthorized             Unauthorized
//	KindInsufficientCredits  402     insufficient-credits     Insufficient credits
//	KindAccountSuspended     403     account-suspended        Account suspended
//	KindKeyNotPermitted      403     key-not-permitted        Key not permitted
//	KindNotFound             404     not-found                Not found
//	KindMethodNotAllowed     405     method-not-allowed       Method not allowed
//	KindIdempotencyKeyReused 409     idempotency-key-reused   Idempotency key reused
//	KindIdempotencyKeyInUse  409     idempotency-key-in-use   Idempotency key in use
//	KindUnroutable           422     unroutable               No route found
//	KindRateLimited          429     rate-limited             Too many requests
//	KindInternal             500     internal-error           Internal error
//	KindServiceUnavailable   503     service-unavailable      Service unavailable
//
// The specification fixes all but key-not-permitted (a public key on a compute endpoint), not-found,
// method-not-allowed, internal-error and the two 409s, which only a request sending the optional
// Idempotency-Key header can receive (idempotency.go). The caller adds the extra headers of 402 (X-Credits-Remaining) and
// 429 (Retry-After, X-RateLimit-*). The zero Kind is not a problem: NewProblem treats it, and any value not
// listed, as KindInternal.
const (
	KindInvalidRequest Kind = iota + 1
	KindUnauthorized
	KindInsufficientCredits
	KindAccountSuspended
	KindKeyNotPermitted
	KindNotFound
	KindMethodNotAllowed
	KindUnroutable
	KindRateLimited
	KindInternal
	KindServiceUnavailable
	KindIdempotencyKeyReused
	KindIdempotencyKeyInUse
)

// kindInfo is one row of the table above.
type kindInfo struct {
	suffix string
	title  string
	status int
}

// info returns k's row of the table; unlisted kinds are internal errors.
func (k Kind) info() kindInfo {
	switch k {
	case KindInvalidRequest:
		return kindInfo{"invalid-request", "Invalid request", fasthttp.StatusBadRequest}
	case KindUnauthorized:
		return kindInfo{"unauthorized", "Unauthorized", fasthttp.StatusUnauthorized}
	case KindInsufficientCredits:
		return kindInfo{"insufficient-credits", "Insufficient credits", fasthttp.StatusPaymentRequired}
	case KindAccountSuspended:
		return kindInfo{"account-suspended", "Account suspended", fasthttp.StatusForbidden}
	case KindKeyNotPermitted:
		return kindInfo{"key-not-permitted", "Key not permitted", fasthttp.StatusForbidden}
	case KindNotFound:
		return kindInfo{"not-found", "Not found", fasthttp.StatusNotFound}
	case KindMethodNotAllowed:
		return kindInfo{"method-not-allowed", "Method not allowed", fasthttp.StatusMethodNotAllowed}
	case KindUnroutable:
		return kindInfo{"unroutable", "No route found", fasthttp.StatusUnprocessableEntity}
	case KindRateLimited:
		return kindInfo{"rate-limited", "Too many requests", fasthttp.StatusTooManyRequests}
	case KindIdempotencyKeyReused:
		return kindInfo{"idempotency-key-reused", "Idempotency key reused", fasthttp.StatusConflict}
	case KindIdempotencyKeyInUse:
		return kindInfo{"idempotency-key-in-use", "Idempotency key in use", fasthttp.StatusConflict}
	case KindServiceUnavailable:
		return kindInfo{"service-unavailable", "Service unavailable", fasthttp.StatusServiceUnavailable}
	}
	return kindInfo{"internal-error", "Internal error", fasthttp.StatusInternalServerError}
}

// Status returns the HTTP status of k.
func (k Kind) Status() int { return k.info().status }

// Type returns the type URI of k.
func (k Kind) Type() string { return ErrorsBase + k.info().suffix }

// Problem is an error body. Errors is never null in the JSON: [] when there are no field errors.
type Problem struct {
	Type     string       `json:"type"`
	Title    string       `json:"title"`
	Status   int          `json:"status"`
	Detail   string       `json:"detail"`
	Instance string       `json:"instance"`
	Errors   []FieldError `json:"errors"`
}

// NewProblem builds the problem of kind k: type, title and status come from the table of Kind; detail,
// requestID (the instance) and errs are truncated to the limits of the specification. errs is copied only
// when it must be shortened.
func NewProblem(k Kind, detail, requestID string, errs []FieldError) Problem {
	info := k.info()
	p := Problem{Type: ErrorsBase + info.suffix, Title: info.title, Status: info.status, Detail: detail,
		Instance: requestID, Errors: errs}
	return p.clamped()
}

// clamped returns p cut to the limits of the specification, with a non-nil Errors.
func (p Problem) clamped() Problem {
	p.Title = truncate(p.Title, MaxTitleLength)
	p.Detail = truncate(p.Detail, MaxDetailLength)
	p.Instance = truncate(p.Instance, MaxInstanceLength)
	if len(p.Errors) > MaxFieldErrors {
		p.Errors = p.Errors[:MaxFieldErrors]
	}
	if p.Errors == nil || !fieldErrorsFit(p.Errors) {
		errs := make([]FieldError, len(p.Errors))
		for i, e := range p.Errors {
			errs[i] = FieldError{Field: truncate(e.Field, MaxFieldLength), Message: truncate(e.Message, MaxMessageLength)}
		}
		p.Errors = errs
	}
	return p
}

func fieldErrorsFit(errs []FieldError) bool {
	for _, e := range errs {
		if utf8.RuneCountInString(e.Field) > MaxFieldLength || utf8.RuneCountInString(e.Message) > MaxMessageLength {
			return false
		}
	}
	return true
}

// WriteProblem writes p as the response: its status, Content-Type application/problem+json and the JSON body,
// cut to the limits of the specification. It replaces any body already set.
func WriteProblem(ctx *fasthttp.RequestCtx, p Problem) {
	p = p.clamped()
	if p.Status < 400 || p.Status > 599 {
		// A Problem built without NewProblem; a status outside the error range would read as success.
		p = NewProblem(KindInternal, p.Detail, p.Instance, p.Errors)
	}
	body, err := json.Marshal(p)
	if err != nil {
		// Unreachable: a Problem holds only strings and an int. Never answer with an empty error body.
		p = NewProblem(KindInternal, "the error response could not be encoded", p.Instance, nil)
		body, _ = json.Marshal(p)
	}
	ctx.SetStatusCode(p.Status)
	ctx.SetContentType(ProblemContentType)
	ctx.SetBody(body)
}

// truncate cuts s to at most max characters (Unicode code points, as JSON Schema's maxLength counts them),
// never inside a character.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}
