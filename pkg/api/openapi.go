package api

import (
	_ "embed" // the OpenAPI document is compiled in
	"github.com/valyala/fasthttp"
)

// openAPI is the OpenAPI 3.1 document of the whole /v1 API: every endpoint,
// schema, limit, status, header and the security scheme. It is written by
// hand beside the code; openapi_test.go checks it against the server's
// endpoints, the problem table and the limits, and the end-to-end tests
// validate every response they receive against it.
//
//go:embed openapi.json
var openAPI []byte

// OpenAPIDocument returns a copy of the OpenAPI document served at
// /v1/openapi.json.
func OpenAPIDocument() []byte { return append([]byte(nil), openAPI...) }

// serveOpenAPI answers GET /v1/openapi.json.
func serveOpenAPI(ctx *fasthttp.RequestCtx) {
	ctx.SetContentType("application/json")
	ctx.SetBody(openAPI)
}
