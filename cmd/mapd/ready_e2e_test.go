package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// TestReadinessReleaseRemoved removes the release a running mapd serves
// (an operator's rm -rf): mapd keeps answering from its mapping, but
// readiness turns false, because a restart would fail, and it does.
func TestReadinessReleaseRemoved(t *testing.T) {
	data := t.TempDir()
	copyRelease(t, compiletest.Andorra(t), filepath.Join(data, "test1"))
	if err := os.Symlink("test1", filepath.Join(data, "current")); err != nil {
		t.Fatal(err)
	}
	s := launchMapd(t, "--data", data)
	if r := s.do(t, "GET", "/v1/health/ready", "", ""); r.status != 200 {
		t.Fatalf("ready before: %d %s", r.status, r.raw)
	}
	if err := os.RemoveAll(filepath.Join(data, "test1")); err != nil {
		t.Fatal(err)
	}
	r := s.do(t, "GET", "/v1/health/ready", "", "")
	if detail, _ := r.body["detail"].(string); r.status != 503 || !strings.Contains(detail, "release test1 are gone") || strings.Contains(detail, data) {
		t.Errorf("ready after rm -rf: %d %s", r.status, r.raw)
	}
	if r := s.do(t, "GET", "/v1/health/live", "", ""); r.status != 200 {
		t.Errorf("live after rm -rf: %d %s", r.status, r.raw)
	}
	if r := s.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`}`); r.status != 200 {
		t.Errorf("directions after rm -rf: %d %s", r.status, r.raw)
	}
	// What readiness warns of: the same command no longer starts.
	cmd := exec.Command(mapdBin, "serve", "--data", data, "--listen", freeAddr(t), "--ledger", ledgerFile(t))
	done := make(chan []byte, 1)
	go func() { out, _ := cmd.CombinedOutput(); done <- out }()
	select {
	case out := <-done:
		if cmd.ProcessState.Success() {
			t.Errorf("a restart on the removed release succeeded:\n%s", out)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("a restart on the removed release is still running after 20 s")
	}
}
