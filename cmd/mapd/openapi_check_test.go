package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/mapsco/maps/pkg/api"
)

// Every response the end-to-end tests receive is checked against the
// OpenAPI document served at /v1/openapi.json: status, Content-Type,
// documented headers (X-Attribution is required on all of them) and body.

var (
	openAPIOnce sync.Once
	openAPIDoc  *openapi3.T
	openAPIErr  error
)

// strictOpenAPI loads the document with every object schema closed
// (additionalProperties: false). The served document leaves objects open,
// because /v1 is additive-only and clients must tolerate new fields; the
// tests close them so that a field the server sends but the document does
// not describe fails here.
func strictOpenAPI() (*openapi3.T, error) {
	openAPIOnce.Do(func() {
		var raw map[string]any
		if openAPIErr = json.Unmarshal(api.OpenAPIDocument(), &raw); openAPIErr != nil {
			return
		}
		for _, s := range raw["components"].(map[string]any)["schemas"].(map[string]any) {
			closeSchema(s)
		}
		b, _ := json.Marshal(raw)
		if openAPIDoc, openAPIErr = openapi3.NewLoader().LoadFromData(b); openAPIErr != nil {
			return
		}
		openAPIErr = openAPIDoc.Validate(context.Background())
	})
	return openAPIDoc, openAPIErr
}

// closeSchema sets additionalProperties: false on every object schema with
// properties, walking only schema positions (a property may be named
// "properties", as a GeoJSON Feature's is).
func closeSchema(v any) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	if props, ok := s["properties"].(map[string]any); ok {
		if _, set := s["additionalProperties"]; !set {
			s["additionalProperties"] = false
		}
		for _, p := range props {
			closeSchema(p)
		}
	}
	closeSchema(s["items"])
	for _, k := range []string{"prefixItems", "oneOf", "anyOf", "allOf"} {
		if list, ok := s[k].([]any); ok {
			for _, sub := range list {
				closeSchema(sub)
			}
		}
	}
}

// routingProblems answer requests no operation takes: an unknown path, a
// wrong method, or a request fasthttp could not read.
var routingProblems = map[int]string{
	http.StatusNotFound:         "NotFound",
	http.StatusMethodNotAllowed: "MethodNotAllowed",
	http.StatusBadRequest:       "BadRequest",
}

// validateResponse fails t unless the response is one the OpenAPI document
// allows for method and path (the full path, /v1/...).
func validateResponse(t *testing.T, method, path string, status int, header http.Header, body []byte) {
	t.Helper()
	if err := checkResponse(method, path, status, header, body); err != nil {
		t.Errorf("%s %s: response %d does not match the OpenAPI document: %v\n%.600s", method, path, status, err, body)
	}
}

func checkResponse(method, path string, status int, header http.Header, body []byte) error {
	doc, err := strictOpenAPI()
	if err != nil {
		return fmt.Errorf("load the OpenAPI document: %w", err)
	}
	rel, _, _ := strings.Cut(strings.TrimPrefix(path, "/v1"), "?")
	item := doc.Paths.Value(rel)
	var op *openapi3.Operation
	if item != nil {
		op = item.GetOperation(method)
	}
	if op == nil {
		name, ok := routingProblems[status]
		if !ok {
			return fmt.Errorf("status %d, but the document has no such operation", status)
		}
		op = &openapi3.Operation{Responses: openapi3.NewResponses(
			openapi3.WithStatus(status, doc.Components.Responses[name]))}
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: httptest.NewRequest(method, path, nil),
			Route:   &routers.Route{Spec: doc, Path: rel, PathItem: item, Method: method, Operation: op},
		},
		Status:  status,
		Header:  header,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	return openapi3filter.ValidateResponse(context.Background(), input)
}

// TestOpenAPICheckerRejects makes sure the checker is not vacuous: each of
// these answers breaks the document in one way.
func TestOpenAPICheckerRejects(t *testing.T) {
	okHeader := func() http.Header {
		return http.Header{"Content-Type": {"application/json"}, api.AttributionHeader: {"\xa9 OpenStreetMap contributors, ODbL"}}
	}
	status := `{"status":"ready","data_version":"v1"}`
	cases := []struct {
		name   string
		path   string
		status int
		header http.Header
		body   string
	}{
		{"undocumented field", "/v1/health/ready", 200, okHeader(), `{"status":"ready","data_version":"v1","extra":1}`},
		{"missing attribution", "/v1/health/ready", 200, http.Header{"Content-Type": {"application/json"}}, status},
		{"undocumented status", "/v1/health/ready", 418, okHeader(), status},
		{"data_version too long", "/v1/health/ready", 200, okHeader(), `{"status":"ready","data_version":"` + strings.Repeat("v", 33) + `"}`},
		{"wrong media type", "/v1/health/ready", 200, http.Header{"Content-Type": {"text/plain"}, api.AttributionHeader: {"\xa9 OpenStreetMap contributors"}}, status},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := checkResponse("GET", c.path, c.status, c.header, []byte(c.body)); err == nil {
				t.Errorf("accepted")
			} else {
				t.Logf("refused: %.200v", err)
			}
		})
	}
	validateResponse(t, "GET", "/v1/health/ready", 200, okHeader(), []byte(status))
}
