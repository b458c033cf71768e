package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// watched is a running mapd whose JSON log lines the test can read while it
// runs (startMapd's buffer is for reading after the fact only).
type watched struct {
	*server
	metricsBase string // http://host:port of --metrics-listen, or ""
	mu          sync.Mutex
	lines       []map[string]any
	exited      chan error // receives cmd.Wait's result once
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// launchMapd runs `mapd serve` with metrics on and waits for "serving".
func launchMapd(t *testing.T, args ...string) *watched {
	t.Helper()
	addr, maddr := freeAddr(t), freeAddr(t)
	cmd := exec.Command(mapdBin, append([]string{"serve", "--listen", addr, "--metrics-listen", maddr}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watched{server: &server{base: "http://" + addr, cmd: cmd}, metricsBase: "http://" + maddr, exited: make(chan error, 1)}
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				w.mu.Lock()
				w.lines = append(w.lines, line)
				w.mu.Unlock()
			}
		}
	}()
	go func() {
		<-scanned // Wait closes the pipe: read it all first
		w.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	w.waitLog(t, 10*time.Second, func(l map[string]any) bool { return l["msg"] == "serving" })
	return w
}

// waitLog waits for a log line that match accepts and returns it.
func (w *watched) waitLog(t *testing.T, timeout time.Duration, match func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if l := w.findLog(match); l != nil {
			return l
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no matching log line within %v; log:\n%s", timeout, w.logText())
	return nil
}

// findLog returns the first log line match accepts, or nil.
func (w *watched) findLog(match func(map[string]any) bool) map[string]any {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range w.lines {
		if match(l) {
			return l
		}
	}
	return nil
}

// logText returns the log so far, one JSON object a line.
func (w *watched) logText() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	for _, l := range w.lines {
		j, _ := json.Marshal(l)
		b.Write(append(j, '\n'))
	}
	return b.String()
}

// signal sends sig to mapd.
func (w *watched) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := w.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}
