package api

import "github.com/valyala/fasthttp"

// computePaths lists the compute operations of spec §4, each a POST that is
// authenticated, charged and answered by compute.
func computePaths(s *Server) map[string]fasthttp.RequestHandler {
	return map[string]fasthttp.RequestHandler{
		"/v1/directions": compute(s, directions),
		"/v1/matrix":     compute(s, matrixOp),
		"/v1/isochrone":  compute(s, isochroneOp(s.isochrones)),
		"/v1/elevation":  compute(s, elevationOp),
		"/v1/match":      compute(s, matchOp),
	}
}
