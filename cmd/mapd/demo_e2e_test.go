package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// demoRun is one `make demo` running in its own process group (make, and
// the mapd it starts), stopped with SIGTERM to the group when the test ends.
type demoRun struct {
	cmd  *exec.Cmd
	logs *lockedBuffer
	base string
}

// lockedBuffer is the output of make and mapd, read while they write it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startDemo(t *testing.T, releases, version, listen string) *demoRun {
	t.Helper()
	d := &demoRun{logs: &lockedBuffer{}, base: "http://" + listen}
	d.cmd = exec.Command("make", "-C", compiletest.Root(), "--no-print-directory", "demo",
		"RELEASES="+releases, "VERSION="+version, "LISTEN="+listen)
	d.cmd.Stdout, d.cmd.Stderr = d.logs, d.logs
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- d.cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	// The first make builds both binaries; give it the time a loaded machine needs.
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if v, err := servedVersion(d.base); err == nil && v != "" {
			return d
		}
		if d.cmd.ProcessState != nil || time.Now().After(deadline) {
			t.Fatalf("make demo did not serve on %s:\n%s", listen, d.logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (d *demoRun) status(t *testing.T, path string) int {
	t.Helper()
	resp, err := http.Get(d.base + path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestMakeDemo runs `make demo` as the README has a newcomer run it (on a
// directory of releases of its own): it points current at the demo release,
// serves the directory with the playground on loopback, and the swap of
// docs/operations.md works on it: `mapc release use` moves what it serves,
// without a restart. Its key is charged like any other. On an address other
// than loopback the playground is off.
func TestMakeDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: make demo builds both binaries (the full pass runs it)")
	}
	data := t.TempDir()
	linkReleases(t, data, "swap1", "swap2")
	d := startDemo(t, data, "swap1", freeAddr(t))
	if v, _ := servedVersion(d.base); v != "swap1" {
		t.Fatalf("make demo serves %q, want swap1", v)
	}
	if target, err := os.Readlink(filepath.Join(data, "current")); err != nil || target != "swap1" {
		t.Errorf("releases/current -> %q (%v), want swap1", target, err)
	}
	if code := d.status(t, "/playground/"); code != 200 {
		t.Errorf("GET /playground/ on loopback: %d, want 200", code)
	}
	key, err := os.ReadFile(filepath.Join(data, "demo-key"))
	if err != nil || !strings.HasPrefix(string(key), "sk_") {
		t.Fatalf("demo-key %q: %v", key, err)
	}
	id, err := os.ReadFile(filepath.Join(data, "demo-account-id"))
	if err != nil || !strings.HasPrefix(string(id), "acct_") {
		t.Fatalf("demo-account-id %q: %v", id, err)
	}
	req, _ := http.NewRequest("POST", d.base+"/v1/elevation", strings.NewReader(`{"coordinates": [[1.5218, 42.5063]]}`))
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(key)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the demo key: %d", resp.StatusCode)
	}

	mapc := filepath.Join(compiletest.Root(), "bin", "mapc")
	if out, err := exec.Command(mapc, "release", "use", "--dir", data, "swap2").CombinedOutput(); err != nil {
		t.Fatalf("mapc release use swap2: %v\n%s", err, out)
	}
	waitServed(t, d.base, "swap2", 30*time.Second)

	// A release chosen since is kept when the demo starts again, and an
	// address other than loopback has no playground.
	syscall.Kill(-d.cmd.Process.Pid, syscall.SIGTERM)
	_ = d.cmd.Wait()
	ln := freeAddr(t)
	port := ln[strings.LastIndex(ln, ":"):]
	d = startDemo(t, data, "swap1", "0.0.0.0"+port)
	d.base = "http://127.0.0.1" + port
	if v, _ := servedVersion(d.base); v != "swap2" {
		t.Errorf("make demo again serves %q, want swap2 (the release chosen since)", v)
	}
	if code := d.status(t, "/playground/"); code != 404 {
		t.Errorf("GET /playground/ on 0.0.0.0: %d, want 404 (off)", code)
	}
	if !strings.Contains(d.logs.String(), "playground off") {
		t.Errorf("make demo on 0.0.0.0 does not say the playground is off:\n%s", d.logs)
	}
}
