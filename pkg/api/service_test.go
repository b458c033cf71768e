package api

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// fakeHolder serves a release that exists only as a manifest: enough for
// the service endpoints, which never route.
func fakeHolder(profiles ...string) *serving.Holder {
	m := &release.Manifest{DataVersion: "2026-11-22", BuildTime: time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC), FormatVersion: 1}
	r := &serving.Release{Dir: "/releases/2026-11-22", Manifest: m, Routers: map[string]*route.Router{}}
	for _, p := range profiles {
		r.Routers[p] = nil
		m.Profiles = append(m.Profiles, release.ProfileInfo{Name: p, SpeedModelVersion: p + "-1", SpeedModelStatus: "provisional"})
	}
	return serving.NewHolder(r)
}

// onDiskHolder is fakeHolder whose release has its manifest and one
// artifact (graph.map, 3 bytes) in a directory of the test's.
func onDiskHolder(t *testing.T, profiles ...string) (*serving.Holder, string) {
	h := fakeHolder(profiles...)
	rel, done := h.Acquire()
	done()
	rel.Dir = t.TempDir()
	rel.Manifest.Files = []release.FileInfo{{Name: release.GraphFile, Bytes: 3}}
	for name, body := range map[string]string{release.ManifestFile: "{}", release.GraphFile: "map"} {
		if err := os.WriteFile(filepath.Join(rel.Dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return h, rel.Dir
}

// get runs one request through s.Handle.
func get(s *Server, method, path string) *fasthttp.RequestCtx {
	ctx := &fasthttp.RequestCtx{}
	ctx.Request.Header.SetMethod(method)
	ctx.Request.SetRequestURI(path)
	s.Handle(ctx)
	return ctx
}

func TestReady(t *testing.T) {
	var ledgerDown error
	holder, dir := onDiskHolder(t, "car")
	s, err := New(Config{Releases: holder, Ready: func(ctx context.Context) error {
		if _, ok := ctx.Deadline(); !ok {
			return errors.New("no deadline")
		}
		return ledgerDown
	}})
	if err != nil {
		t.Fatal(err)
	}
	if ctx := get(s, "GET", PathReady); ctx.Response.StatusCode() != 200 || !strings.Contains(string(ctx.Response.Body()), `"data_version":"2026-11-22"`) {
		t.Errorf("ready: %d %s", ctx.Response.StatusCode(), ctx.Response.Body())
	}
	ledgerDown = errors.New("ledger: connection refused")
	ctx := get(s, "GET", PathReady)
	var p Problem
	json.Unmarshal(ctx.Response.Body(), &p)
	if ctx.Response.StatusCode() != 503 || p.Type != KindServiceUnavailable.Type() || !strings.Contains(p.Detail, "ledger: connection refused") {
		t.Errorf("ready with the ledger down: %d %s", ctx.Response.StatusCode(), ctx.Response.Body())
	}
	if got := get(s, "GET", PathLive).Response.StatusCode(); got != 200 {
		t.Errorf("live while not ready: %d", got)
	}

	empty, _ := New(Config{Releases: fakeHolder()})
	if got := get(empty, "GET", PathReady).Response.StatusCode(); got != 503 {
		t.Errorf("ready with a release serving no profile: %d", got)
	}

	// The release's files changed or gone (cmd/mapd's TestReadinessReleaseRemoved
	// does it to a running mapd).
	ledgerDown = nil
	graph := filepath.Join(dir, release.GraphFile)
	for _, c := range []struct {
		name   string
		change func() error
		detail string
	}{
		{"truncated", func() error { return os.Truncate(graph, 1) }, "graph.map is 1 bytes, its manifest says 3"},
		{"removed", func() error { return os.RemoveAll(dir) }, "the files of release 2026-11-22 are gone (manifest.json: no such file or directory)"},
	} {
		if err := c.change(); err != nil {
			t.Fatal(err)
		}
		ctx := get(s, "GET", PathReady)
		var p Problem
		json.Unmarshal(ctx.Response.Body(), &p)
		if ctx.Response.StatusCode() != 503 || !strings.Contains(p.Detail, c.detail) || strings.Contains(p.Detail, dir) {
			t.Errorf("ready with the release %s: %d %s", c.name, ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
}

func TestStatus(t *testing.T) {
	started := time.Now().Add(-90 * time.Second)
	s, _ := New(Config{Releases: fakeHolder("car", "moto"), Started: started})
	ctx := get(s, "GET", PathStatus)
	var st Status
	if err := json.Unmarshal(ctx.Response.Body(), &st); err != nil {
		t.Fatal(err)
	}
	if st.DataVersion != "2026-11-22" || st.FormatVersion != 1 || len(st.Profiles) != 2 || st.Profiles[1].SpeedModelVersion != "moto-1" {
		t.Errorf("release fields: %+v", st)
	}
	if st.UptimeS < 90 || st.UptimeS > 100 || st.Build.GoVersion == "" {
		t.Errorf("uptime %v, build %+v", st.UptimeS, st.Build)
	}
	if len(st.DataSources) != 2 || st.DataSources[0].Attribution != "© OpenStreetMap contributors" {
		t.Errorf("data sources %+v", st.DataSources)
	}
}

func TestServiceEndpointsTakeGETAndHEADOnly(t *testing.T) {
	s, _ := New(Config{Releases: fakeHolder("car")})
	for _, p := range []string{PathLive, PathReady, PathStatus, PathOpenAPI} {
		ctx := get(s, "POST", p)
		if ctx.Response.StatusCode() != 405 || string(ctx.Response.Header.Peek("Allow")) != "GET, HEAD" {
			t.Errorf("POST %s: %d, Allow %q", p, ctx.Response.StatusCode(), ctx.Response.Header.Peek("Allow"))
		}
	}
	if ctx := get(s, "GET", PathOpenAPI); !json.Valid(ctx.Response.Body()) || string(ctx.Response.Header.ContentType()) != "application/json" {
		t.Errorf("openapi.json: %s", ctx.Response.Header.ContentType())
	}
}
