package deploy

// The processes of the scale-out test: PostgreSQL (a fresh schema on the
// shared server), Redis (an instance of the test's own), mapd replicas and
// nginx, all on loopback ports the test picks.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// pgSchema gives the test a schema of its own on the shared PostgreSQL
// and returns a ledger URL whose search_path selects it.
func pgSchema(t *testing.T) string {
	dsn, _ := ledgertest.PostgresSchema(t, "deploy_test_")
	return dsn
}

// freePort returns a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// proc is a child process with its stderr (and stdout) kept.
type proc struct {
	name string
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

// start runs a command, keeping its output, and stops it (SIGTERM, then
// SIGKILL after 10 s) when the test ends.
func start(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(args[0], args[1:]...), done: make(chan struct{})}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stdout, p.cmd.Stderr = pw, pw
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	pw.Close()
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.out.Write(append(sc.Bytes(), '\n'))
			p.mu.Unlock()
		}
		pr.Close()
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.stop(t) })
	return p
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// stop sends SIGTERM and waits (SIGKILL after 10 s).
func (p *proc) stop(t *testing.T) {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Errorf("%s did not stop within 10 s of SIGTERM", p.name)
		p.cmd.Process.Kill()
		<-p.done
	}
}

// kill9 kills the process with SIGKILL and waits until it is reaped.
func (p *proc) kill9() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// waitFor polls check until it returns nil, for at most d.
func waitFor(t *testing.T, p *proc, d time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := check()
		if err == nil {
			return
		}
		select {
		case <-p.done:
			t.Fatalf("%s exited before %s: %v\n%s", p.name, what, err, p.output())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no %s within %v: %v\n%s", p.name, what, d, err, p.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startRedis runs a Redis of the test's own on a free port, without
// persistence, and returns its URL.
func startRedis(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server is not installed (apt-get install redis-server; scripts/setup does): %v", err)
	}
	port := freePort(t)
	p := start(t, "redis", bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir())
	waitFor(t, p, 10*time.Second, "PING answer", func() error {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err != nil {
			return err
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(time.Second))
		fmt.Fprint(conn, "PING\r\n")
		line, err := bufio.NewReader(conn).ReadString('\n')
		if err != nil || line != "+PONG\r\n" {
			return fmt.Errorf("PING answered %q: %v", line, err)
		}
		return nil
	})
	return fmt.Sprintf("redis://127.0.0.1:%d/0", port)
}

// replica is one mapd serve of the cluster.
type replica struct {
	*proc
	port int
	args []string
}

// startReplica runs mapd serve with the flags of deploy/systemd/mapd@.service
// on the given port, and waits until it is ready.
func startReplica(t *testing.T, i, port int, data, ledgerURL, redisURL string) *replica {
	t.Helper()
	args := []string{mapdBin, "serve", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port),
		"--ledger", ledgerURL, "--rate-limit-store", redisURL, "--rate-limit", "1000000", "--drain-timeout", "5s", "--admin-socket", "none"}
	r := &replica{port: port, args: args}
	r.restart(t, i)
	return r
}

// restart starts the replica's process (again) and waits for readiness.
func (r *replica) restart(t *testing.T, i int) {
	t.Helper()
	r.proc = start(t, fmt.Sprintf("mapd replica %d", i), r.args...)
	url := fmt.Sprintf("http://127.0.0.1:%d/v1/health/ready", r.port)
	waitFor(t, r.proc, 20*time.Second, "readiness", func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("ready: %d", resp.StatusCode)
		}
		return nil
	})
}

// served counts the 200s of compute requests in the replica's access log.
func (r *replica) served() int {
	n := 0
	for _, line := range strings.Split(r.output(), "\n") {
		var l struct {
			Msg     string `json:"msg"`
			Status  int    `json:"status"`
			Charged int64  `json:"credits_charged"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "request" && l.Status == 200 && l.Charged > 0 {
			n++
		}
	}
	return n
}

// recipePath is the nginx configuration of the recipe.
const recipePath = "nginx/mapd.conf"

var (
	listenLine   = regexp.MustCompile(`(?m)^(\s*)listen 80;`)
	upstreamLine = regexp.MustCompile(`(?m)^(\s*)server 127\.0\.0\.1:808(\d)( .*;)$`)
)

// startNginx runs Debian's nginx with the recipe's configuration, its
// listen port and replica addresses replaced by the test's, and returns
// its base URL. Its pid file, logs and temporary files stay in a temporary
// directory: the system's nginx service is not involved.
func startNginx(t *testing.T, replicaPorts []int) string {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			t.Fatalf("nginx is not installed: run scripts/setup (it installs Debian's nginx without starting its service): %v", err)
		}
		bin = "/usr/sbin/nginx"
	}
	recipe, err := os.ReadFile(recipePath)
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	conf := listenLine.ReplaceAllString(string(recipe), fmt.Sprintf("${1}listen 127.0.0.1:%d;", port))
	servers := 0
	conf = upstreamLine.ReplaceAllStringFunc(conf, func(line string) string {
		m := upstreamLine.FindStringSubmatch(line)
		i := int(m[2][0] - '1')
		servers++
		return fmt.Sprintf("%sserver 127.0.0.1:%d%s", m[1], replicaPorts[i], m[3])
	})
	if servers != len(replicaPorts) || !strings.Contains(conf, fmt.Sprintf("listen 127.0.0.1:%d;", port)) {
		t.Fatalf("%s: found %d of the %d replica lines, or no listen line, to point at the test's ports", recipePath, servers, len(replicaPorts))
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mapd.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	userLine := ""
	if os.Geteuid() == 0 { // else the workers would run as nobody, who cannot reach the temporary directory
		if u, err := user.Current(); err == nil {
			userLine = "user " + u.Username + ";"
		}
	}
	main := fmt.Sprintf(`%s
daemon off;
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %[2]s/body;
    proxy_temp_path %[2]s/proxy;
    fastcgi_temp_path %[2]s/fastcgi;
    uwsgi_temp_path %[2]s/uwsgi;
    scgi_temp_path %[2]s/scgi;
    include %[2]s/mapd.conf;
}
`, userLine, dir)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-t", "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", filepath.Join(dir, "nginx.conf")).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t refuses the recipe: %v\n%s", err, out)
	}
	p := start(t, "nginx", bin, "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", filepath.Join(dir, "nginx.conf"))
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	waitFor(t, p, 10*time.Second, "readiness through nginx", func() error {
		resp, err := http.Get(base + "/v1/health/ready")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("ready through nginx: %d", resp.StatusCode)
		}
		return nil
	})
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Logf("nginx error log:\n%s", log)
		}
	})
	return base
}
