package client_test

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/internal/shareddata"
)

// The examples call a live mapd: TestMain builds mapc and mapd from this
// checkout, compiles Andorra, funds an account and serves it on a free
// loopback port, at mapdURL with apiKey.
var mapdURL, apiKey string

func TestMain(m *testing.M) {
	if err := compiletest.AndorraMissing(); err != nil {
		os.Exit(withoutMapd(m, err))
	}
	dir, err := os.MkdirTemp("", "client-test-")
	if err != nil {
		panic(err)
	}
	stop, err := startMapd(dir)
	code := 1
	if err != nil {
		fmt.Fprintln(os.Stderr, "start mapd:", err)
	} else {
		code = m.Run()
		stop()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// withoutMapd runs what needs no mapd when the data Andorra is compiled
// from is absent: the examples all speak to mapd, so they are skipped with
// the reason, as shareddata.Path skips a test (or, when the data is
// required, nothing runs and the package fails).
func withoutMapd(m *testing.M, missing error) int {
	if shareddata.Required() {
		fmt.Fprintln(os.Stderr, missing)
		return 1
	}
	fmt.Fprintln(os.Stderr, "skipping the examples, which speak to a mapd serving Andorra:", missing)
	flag.Parse()
	skip := "^Example"
	if prev := flag.Lookup("test.skip").Value.String(); prev != "" {
		skip = prev + "|" + skip
	}
	flag.Set("test.skip", skip)
	return m.Run()
}

// startMapd serves a freshly compiled Andorra from dir and returns how to stop it.
func startMapd(dir string) (stop func(), err error) {
	root := compiletest.Root()
	for _, cmd := range []string{"mapc", "mapd"} {
		build := exec.Command("go", "build", "-o", filepath.Join(dir, cmd), "./cmd/"+cmd)
		build.Dir = root
		if b, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build %s: %v\n%s", cmd, err, b)
		}
	}
	run := func(args ...string) ([]byte, error) {
		b, err := exec.Command(filepath.Join(dir, args[0]), args[1:]...).Output()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", strings.Join(args[:2], " "), err)
		}
		return b, nil
	}
	build := []string{"mapc", "build", "--osm", filepath.Join(shareddata.Dir(), "andorra.osm.pbf"), "--profiles", filepath.Join(root, "profiles"),
		"--data-version", "client1", "--out", dir}
	for _, dem := range compiletest.AndorraDEM() {
		build = append(build, "--dem", dem)
	}
	if _, err := run(build...); err != nil {
		return nil, err
	}
	ledger := filepath.Join(dir, "ledger.db")
	b, err := run("mapd", "account", "create", "--credits", "1000", "--ledger", ledger)
	if err != nil {
		return nil, err
	}
	var acct struct {
		SecretKey string `json:"secret_key"`
	}
	if err := json.Unmarshal(b, &acct); err != nil {
		return nil, fmt.Errorf("account create printed %q: %w", b, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	serve := exec.Command(filepath.Join(dir, "mapd"), "serve", "--data", filepath.Join(dir, "client1"), "--listen", addr, "--ledger", ledger)
	logs, _ := serve.StderrPipe()
	if err := serve.Start(); err != nil {
		return nil, err
	}
	stop = func() {
		serve.Process.Signal(os.Interrupt)
		serve.Wait()
	}
	serving := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"msg":"serving"`) {
				serving <- true
			}
		}
		close(serving)
	}()
	select {
	case ok := <-serving:
		if !ok {
			stop()
			return nil, fmt.Errorf("mapd exited before serving")
		}
	case <-time.After(10 * time.Second):
		stop()
		return nil, fmt.Errorf("mapd did not start within 10 s")
	}
	mapdURL, apiKey = "http://"+addr, acct.SecretKey
	return stop, nil
}
