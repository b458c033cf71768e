package ledgertest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Server is a running PostgreSQL of the test's own: its own data
// directory in a temporary directory, its own port on 127.0.0.1. Fault
// tests stall it (SIGSTOP of the postmaster and every backend) and resume
// it without touching the shared server on port 5432. It is not safe for
// concurrent use; it is stopped when the test ends.
type Server struct {
	// DSN reaches its "postgres" database as the postgres superuser
	// (trust authentication).
	DSN     string
	dir     string // the temporary directory: data/, the socket, the log
	bin     string
	asUser  []string // runuser prefix when running as root
	stalled bool
}

// StartPostgres initialises and starts a server, and stops it and removes
// its files when the test ends. It uses the initdb and pg_ctl of
// /usr/lib/postgresql/*/bin (Debian's postgresql package, which
// scripts/setup relies on) and fails the test if they are missing. initdb
// refuses to run as root, so as root the server runs as the postgres user
// (runuser).
func StartPostgres(t testing.TB) *Server {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		t.Fatal("ledgertest: no /usr/lib/postgresql/*/bin/initdb: install PostgreSQL (scripts/setup does)")
	}
	s := &Server{bin: filepath.Dir(bins[len(bins)-1])}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	s.dir = dir
	t.Cleanup(s.stop)
	if os.Geteuid() == 0 {
		s.asUser = []string{"runuser", "-u", "postgres", "--"}
		if err := chownToPostgres(dir); err != nil {
			t.Fatalf("ledgertest: %v", err)
		}
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"); err != nil {
		t.Fatalf("ledgertest: initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c shared_buffers=16MB -c max_connections=60", port, dir)
	if out, err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		t.Fatalf("ledgertest: pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	s.DSN = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return s
}

// Stall stops the server dead: SIGSTOP to the postmaster, then to every
// process it started (backends, WAL writer, checkpointer), as a hung
// machine would. Connections stay open and requests queue in their
// sockets.
func (s *Server) Stall(t testing.TB) {
	t.Helper()
	s.signalAll(t, syscall.SIGSTOP)
	s.stalled = true
}

// StallMidLoad is a load test's stall: it lets the load run for a second,
// stalls the server for 4 s, resumes it and lets the load run a second
// more. With -short (the race pass) 0.5 s and 2.5 s: the stall is still
// longer than the 2 s a ledger call waits, so calls fail during it.
func (s *Server) StallMidLoad(t testing.TB) {
	t.Helper()
	around, stall := time.Second, 4*time.Second
	if testing.Short() {
		around, stall = 500*time.Millisecond, 2500*time.Millisecond
	}
	time.Sleep(around)
	s.Stall(t)
	time.Sleep(stall)
	s.Resume(t)
	time.Sleep(around)
}

// Resume sends SIGCONT to every process Stall stopped.
func (s *Server) Resume(t testing.TB) {
	t.Helper()
	s.signalAll(t, syscall.SIGCONT)
	s.stalled = false
}

func (s *Server) signalAll(t testing.TB, sig syscall.Signal) {
	pm, err := s.postmaster()
	if err != nil {
		t.Fatalf("ledgertest: %v", err)
	}
	pids := append([]int{pm}, children(pm)...)
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil && err != syscall.ESRCH {
			t.Fatalf("ledgertest: signalling %d: %v", pid, err)
		}
	}
}

// postmaster reads the server's pid from its data directory.
func (s *Server) postmaster() (int, error) {
	raw, err := os.ReadFile(filepath.Join(s.dir, "data", "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// children lists the processes whose parent is pid.
func children(pid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, path := range stats {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ')'.
		i := strings.LastIndexByte(string(raw), ')')
		fields := strings.Fields(string(raw[i+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			kids = append(kids, child)
		}
	}
	return kids
}

// stop resumes a stalled server, stops it at once and removes its files.
func (s *Server) stop() {
	if s.stalled {
		if pm, err := s.postmaster(); err == nil {
			for _, pid := range append([]int{pm}, children(pm)...) {
				syscall.Kill(pid, syscall.SIGCONT)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(s.dir, "data", "postmaster.pid")); err == nil {
		s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	}
	os.RemoveAll(s.dir)
}

// run runs one of PostgreSQL's programs, as the postgres user when root.
func (s *Server) run(prog string, args ...string) ([]byte, error) {
	argv := append(append(append([]string{}, s.asUser...), filepath.Join(s.bin, prog)), args...)
	return exec.Command(argv[0], argv[1:]...).CombinedOutput()
}

func chownToPostgres(dir string) error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root needs the postgres user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

// freePort returns a port nothing listens on at 127.0.0.1.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
