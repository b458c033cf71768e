package api

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/valyala/fasthttp"
)

// plainBody makes the request's body plain JSON according to its
// Content-Encoding: none or identity as it is; gzip inflated, to at most
// the body limit (so a small bomb cannot become a large body), in place of
// the compressed one, so that everything after (decoding, the
// Idempotency-Key's fingerprint) sees the JSON. Any other coding (br,
// deflate, zstd, or several) is refused, never read as if plain.
func (s *Server) plainBody(ctx *fasthttp.RequestCtx) *failure {
	coding := strings.ToLower(strings.TrimSpace(string(ctx.Request.Header.Peek(fasthttp.HeaderContentEncoding))))
	switch coding {
	case "", "identity":
		return nil
	case "gzip", "x-gzip":
	default:
		return &failure{kind: KindInvalidRequest, detail: fmt.Sprintf(
			"Content-Encoding %q is not supported: send the body uncompressed, or gzip-compressed with Content-Encoding: gzip", coding)}
	}
	zr, err := gzip.NewReader(bytes.NewReader(ctx.PostBody()))
	if err != nil {
		return &failure{kind: KindInvalidRequest, detail: "Content-Encoding gzip: the body is not gzip data (" + err.Error() + ")"}
	}
	limit := int64(s.cfg.MaxBodyBytes)
	plain, err := io.ReadAll(io.LimitReader(zr, limit+1))
	switch {
	case err != nil:
		return &failure{kind: KindInvalidRequest, detail: "Content-Encoding gzip: the body does not inflate (" + err.Error() + ")"}
	case int64(len(plain)) > limit:
		return &failure{kind: KindInvalidRequest, detail: fmt.Sprintf("request body exceeds the limit of %d bytes once inflated", limit)}
	}
	ctx.Request.SetBody(plain)
	ctx.Request.Header.Del(fasthttp.HeaderContentEncoding)
	return nil
}
