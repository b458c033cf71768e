package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// TestShutdownDrains sends SIGTERM while a request is in flight (its body
// half sent): mapd stops accepting connections, answers that request in
// full, and exits cleanly.
func TestShutdownDrains(t *testing.T) {
	s := launchMapd(t, "--data", compiletest.Andorra(t))
	addr := strings.TrimPrefix(s.base, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"coordinates":` + laVellaToPas + `}`
	auth := ""
	if s.key != "" {
		auth = "Authorization: Bearer " + s.key + "\r\n"
	}
	fmt.Fprintf(conn, "POST /v1/directions HTTP/1.1\r\nHost: mapd\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n%s",
		auth, len(body), body[:len(body)/2])
	time.Sleep(200 * time.Millisecond) // the server is now reading the body

	s.signal(t, syscall.SIGTERM)
	s.waitLog(t, 5*time.Second, func(l map[string]any) bool { return strings.HasPrefix(l["msg"].(string), "shutting down") })
	if !refusesConnections(addr, 5*time.Second) {
		t.Errorf("still accepting connections after SIGTERM")
	}

	io.WriteString(conn, body[len(body)/2:])
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the request in flight at SIGTERM got no answer: %v", err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	validateResponse(t, "POST", "/v1/directions", resp.StatusCode, resp.Header, raw)
	var answer struct {
		DataVersion string `json:"data_version"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(raw, &answer) != nil || answer.DataVersion != "test1" {
		t.Errorf("the request in flight at SIGTERM: %d %s", resp.StatusCode, raw)
	}
	select {
	case err := <-s.exited:
		if err != nil {
			t.Errorf("mapd exited with %v after SIGTERM\n%s", err, s.logText())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("mapd did not exit within 10 s of draining")
	}
	s.exited <- nil // for the cleanup
	s.waitLog(t, time.Second, func(l map[string]any) bool { return l["msg"] == "shut down" })
}

// refusesConnections waits until nothing accepts connections on addr.
func refusesConnections(addr string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			return true
		}
		c.Close()
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
