package api

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/valyala/fasthttp/fasthttputil"
)

// TestHealthAnswersHEAD: load balancers probe with HEAD; the health
// endpoints answer it with GET's status and headers and no body, over a
// real fasthttp server, and a compute endpoint still refuses it.
func TestHealthAnswersHEAD(t *testing.T) {
	var down atomic.Bool
	holder, _ := onDiskHolder(t, "car") // readiness also checks the release's files
	s, err := New(Config{Releases: holder, Ready: func(context.Context) error {
		if down.Load() {
			return errors.New("ledger: down")
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	ln := fasthttputil.NewInmemoryListener()
	defer ln.Close()
	go s.HTTPServer().Serve(ln)
	head := func(path string) *http.Response {
		t.Helper()
		conn, err := ln.Dial()
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "HEAD %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path)
		br := bufio.NewReader(conn)
		req, _ := http.NewRequest(http.MethodHead, path, nil)
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatalf("HEAD %s: %v", path, err)
		}
		if rest, _ := br.Peek(1); len(rest) > 0 {
			t.Errorf("HEAD %s: a body follows the headers", path)
		}
		return resp
	}
	for _, p := range []string{PathLive, PathReady, PathStatus, PathOpenAPI} {
		if r := head(p); r.StatusCode != 200 || r.ContentLength <= 0 || r.Header.Get(AttributionHeader) == "" {
			t.Errorf("HEAD %s: %d, Content-Length %d, headers %v", p, r.StatusCode, r.ContentLength, r.Header)
		}
	}
	down.Store(true)
	if r := head(PathReady); r.StatusCode != 503 {
		t.Errorf("HEAD %s while not ready: %d, want 503", PathReady, r.StatusCode)
	}
	if r := head("/v1/directions"); r.StatusCode != 405 || r.Header.Get("Allow") != "POST" {
		t.Errorf("HEAD /v1/directions: %d, Allow %q; want 405 and POST", r.StatusCode, r.Header.Get("Allow"))
	}
}
