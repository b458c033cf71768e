package api

import (
	"fmt"
	"strings"

	"github.com/valyala/fasthttp"
)

// Mount serves paths outside the /v1 API under a prefix, such as mapd
// --playground's page and map tiles. Mounted paths take GET only, carry no
// key and cost no credits; the Server adds the attribution header, logs and
// counts them like its own endpoints, and answers other methods 405.
type Mount struct {
	Prefix    string                  // e.g. "/tiles/"; must start and end with "/" and not be under /v1/
	Operation string                  // the name in logs and metrics, e.g. "tiles"
	Handler   fasthttp.RequestHandler // answers every GET under Prefix, the bare prefix included
}

// addMounts checks and records cfg's mounts.
func (s *Server) addMounts(ms []Mount) error {
	for _, m := range ms {
		if !strings.HasPrefix(m.Prefix, "/") || !strings.HasSuffix(m.Prefix, "/") || strings.HasPrefix(m.Prefix, "/v1/") || m.Handler == nil || m.Operation == "" {
			return fmt.Errorf("api: mount %q (%s): want a prefix /NAME/ outside /v1/, an operation and a handler", m.Prefix, m.Operation)
		}
		s.mount = append(s.mount, path{operation: m.Operation, method: fasthttp.MethodGet, handler: m.Handler, prefix: m.Prefix})
	}
	return nil
}

// mounted finds the mount serving p: the prefix itself, the prefix less its
// final slash (the handler redirects), or a path under it.
func (s *Server) mounted(p []byte) (path, bool) {
	for _, m := range s.mount {
		if strings.HasPrefix(string(p), m.prefix) || string(p) == m.prefix[:len(m.prefix)-1] {
			return m, true
		}
	}
	return path{}, false
}
