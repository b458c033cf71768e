package api

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/valyala/fasthttp"
)

func TestKindTable(t *testing.T) {
	tests := []struct {
		kind   Kind
		suffix string
		title  string
		status int
	}{
		{KindInvalidRequest, "invalid-request", "Invalid request", 400},
		{KindUnauthorized, "unauthorized", "Unauthorized", 401},
		{KindInsufficientCredits, "insufficient-credits", "Insufficient credits", 402},
		{KindAccountSuspended, "account-suspended", "Account suspended", 403},
		{KindKeyNotPermitted, "key-not-permitted", "Key not permitted", 403},
		{KindNotFound, "not-found", "Not found", 404},
		{KindMethodNotAllowed, "method-not-allowed", "Method not allowed", 405},
		{KindUnroutable, "unroutable", "No route found", 422},
		{KindRateLimited, "rate-limited", "Too many requests", 429},
		{KindInternal, "internal-error", "Internal error", 500},
		{KindServiceUnavailable, "service-unavailable", "Service unavailable", 503},
		{KindIdempotencyKeyReused, "idempotency-key-reused", "Idempotency key reused", 409},
		{KindIdempotencyKeyInUse, "idempotency-key-in-use", "Idempotency key in use", 409},
		{Kind(0), "internal-error", "Internal error", 500},
		{Kind(99), "internal-error", "Internal error", 500},
	}
	for _, tt := range tests {
		t.Run(tt.suffix, func(t *testing.T) {
			p := NewProblem(tt.kind, "d", "req_1", nil)
			want := Problem{Type: "https://docs.mapsco.dev/problems/" + tt.suffix, Title: tt.title, Status: tt.status,
				Detail: "d", Instance: "req_1", Errors: []FieldError{}}
			if p.Type != want.Type || p.Title != want.Title || p.Status != want.Status || p.Detail != want.Detail ||
				p.Instance != want.Instance || p.Errors == nil || len(p.Errors) != 0 {
				t.Errorf("got %+v, want %+v", p, want)
			}
			if tt.kind.Status() != tt.status || tt.kind.Type() != want.Type {
				t.Errorf("Status() %d, Type() %q", tt.kind.Status(), tt.kind.Type())
			}
		})
	}
}

func TestNewProblemTruncates(t *testing.T) {
	errs := make([]FieldError, 60)
	for i := range errs {
		errs[i] = FieldError{Field: "/" + strings.Repeat("f", 300), Message: strings.Repeat("é", 300)}
	}
	p := NewProblem(KindInvalidRequest, strings.Repeat("€", 1500), strings.Repeat("r", 100), errs)
	checks := []struct {
		what      string
		got, want int
	}{
		{"detail", utf8.RuneCountInString(p.Detail), MaxDetailLength},
		{"instance", len(p.Instance), MaxInstanceLength},
		{"errors", len(p.Errors), MaxFieldErrors},
		{"field", len(p.Errors[0].Field), MaxFieldLength},
		{"message", utf8.RuneCountInString(p.Errors[49].Message), MaxMessageLength},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: length %d, want %d", c.what, c.got, c.want)
		}
	}
	if !utf8.ValidString(p.Detail) || !utf8.ValidString(p.Errors[0].Message) {
		t.Error("truncation cut a character in two")
	}
	if errs[0].Field != "/"+strings.Repeat("f", 300) {
		t.Error("NewProblem modified the caller's errors")
	}
}

func TestNewProblemKeepsShortErrors(t *testing.T) {
	errs := []FieldError{{Field: "/profile", Message: "unknown profile"}}
	p := NewProblem(KindInvalidRequest, "1 field is invalid", "req_1", errs)
	if len(p.Errors) != 1 || &p.Errors[0] != &errs[0] {
		t.Errorf("errors within the limits should be used as they are: %+v", p.Errors)
	}
}

func TestWriteProblem(t *testing.T) {
	inv := directionsErr([]byte(`{"coordinates":[[1,1],[1,100]]}`))
	tests := []struct {
		name   string
		p      Problem
		status int
		body   string
	}{
		{"invalid request from a decoder", NewProblem(KindInvalidRequest, inv.Detail, "01JD", inv.Errors), 400,
			`{"type":"https://docs.mapsco.dev/problems/invalid-request","title":"Invalid request","status":400,` +
				`"detail":"1 field is invalid","instance":"01JD","errors":[{"field":"/coordinates/1/1","message":` +
				`"latitude must be between -90 and 90, got 100: the pair looks swapped; coordinates are [longitude, latitude]"}]}`},
		{"no field errors is an empty array", NewProblem(KindNotFound, "no such path: /v1/route", "01JE", nil), 404,
			`{"type":"https://docs.mapsco.dev/problems/not-found","title":"Not found","status":404,` +
				`"detail":"no such path: /v1/route","instance":"01JE","errors":[]}`},
		{"a literal with nil errors", Problem{Type: KindUnroutable.Type(), Title: "No route found", Status: 422}, 422,
			`{"type":"https://docs.mapsco.dev/problems/unroutable","title":"No route found","status":422,` +
				`"detail":"","instance":"","errors":[]}`},
		{"a literal without a status is an internal error", Problem{Detail: "oops"}, 500,
			`{"type":"https://docs.mapsco.dev/problems/internal-error","title":"Internal error","status":500,` +
				`"detail":"oops","instance":"","errors":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ctx fasthttp.RequestCtx
			ctx.SetBodyString("partial success body")
			WriteProblem(&ctx, tt.p)
			if got := ctx.Response.StatusCode(); got != tt.status {
				t.Errorf("status %d, want %d", got, tt.status)
			}
			if got := string(ctx.Response.Header.ContentType()); got != "application/problem+json" {
				t.Errorf("content type %q", got)
			}
			if got := string(ctx.Response.Body()); got != tt.body {
				t.Errorf("body\n%s\nwant\n%s", got, tt.body)
			}
			var generic map[string]any
			if err := json.Unmarshal(ctx.Response.Body(), &generic); err != nil || len(generic) != 6 {
				t.Errorf("body is not an object of the six problem fields: %v %v", generic, err)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"ééé", 3, "ééé"},
		{"éééé", 3, "ééé"},
		{"a\xffb\xfec", 3, "a\xffb"},
	}
	for _, tt := range tests {
		if got := truncate(tt.in, tt.max); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
