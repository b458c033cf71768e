package roadops

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// The test binary doubles as a writer process: with ROADOPS_TEST_WRITER
// set to "LEDGER N", it adds and reviews N operations in LEDGER's store,
// printing each id once Review returned (durable), and exits.
func TestMain(m *testing.M) {
	if spec := os.Getenv("ROADOPS_TEST_WRITER"); spec != "" {
		os.Exit(runWriter(spec))
	}
	os.Exit(m.Run())
}

func runWriter(spec string) int {
	ledger, count, _ := strings.Cut(spec, " ")
	n, _ := strconv.Atoi(count)
	s, err := Open(bg, ledger)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	for range n {
		op, err := s.Add(bg, tunnelClosure(), fmt.Sprintf("pid %d", os.Getpid()))
		if err == nil {
			_, err = s.Review(bg, op.ID, "w")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(op.ID)
	}
	return 0
}

func writerProcess(t *testing.T, ledger string, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("ROADOPS_TEST_WRITER=%s %d", ledger, n))
	return cmd
}

// TestEmbeddedTwoProcesses: two writer processes and a reader in this one
// share the file with no server; nothing is lost.
func TestEmbeddedTwoProcesses(t *testing.T) {
	ledger := filepath.Join(t.TempDir(), "ledger.db")
	reader := mustOpen(t, ledger)
	const each = 40
	var cmds []*exec.Cmd
	for range 2 {
		cmd := writerProcess(t, ledger, each)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	checkComplete(t, reader, 2*each)
}

// TestEmbeddedKill9: a writer killed (SIGKILL) at a random moment loses
// none of the operations it reported done, and the file stays readable
// and writable.
func TestEmbeddedKill9(t *testing.T) {
	for round := range 3 {
		ledger := filepath.Join(t.TempDir(), "ledger.db")
		cmd := writerProcess(t, ledger, 100000)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acked := make(chan []string)
		go func() {
			var ids []string
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				ids = append(ids, sc.Text())
			}
			acked <- ids
		}()
		time.Sleep(time.Duration(150+100*round) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		ids := <-acked
		_ = cmd.Wait()
		s := mustOpen(t, ledger)
		for _, id := range ids {
			if op, err := s.Get(bg, id); err != nil || op.State != ReviewReviewed {
				t.Fatalf("round %d: operation %s, reported done before the kill: %+v, %v", round, id, op, err)
			}
		}
		if _, err := s.Add(bg, tunnelClosure(), "after"); err != nil {
			t.Fatalf("round %d: Add after the kill: %v", round, err)
		}
		t.Logf("round %d: %d operations done before kill -9, all there", round, len(ids))
	}
}

// appendBytes writes raw bytes at the end of the operations file.
func appendBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// TestEmbeddedTornTail: a last record cut short or garbled (a writer died
// mid-write) is ignored by readers and cut off by the next writer; every
// intact record stays.
func TestEmbeddedTornTail(t *testing.T) {
	torn := map[string]func(last []byte) []byte{
		"cut short":        func(last []byte) []byte { return last[:len(last)/2] },
		"without its LF":   func(last []byte) []byte { return last[:len(last)-1] },
		"bad checksum":     func(last []byte) []byte { return append([]byte("00000000"), last[8:]...) },
		"zeros":            func(last []byte) []byte { return make([]byte, 100) },
		"just a LF":        func([]byte) []byte { return []byte("\n") },
		"checksum, no LF":  func(last []byte) []byte { return last[:9] },
		"flipped JSON bit": func(last []byte) []byte { b := append([]byte{}, last...); b[20] ^= 1; return b },
	}
	for name, damage := range torn {
		t.Run(name, func(t *testing.T) {
			ledger := filepath.Join(t.TempDir(), "ledger.db")
			path := EmbeddedPath(ledger)
			s := mustOpen(t, ledger)
			kept, err := s.Add(bg, tunnelClosure(), "ana")
			if err != nil {
				t.Fatal(err)
			}
			size := fileSize(t, path)
			if _, err := s.Add(bg, tunnelClosure(), "ana"); err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(path)
			last := raw[size:]
			if err := os.Truncate(path, size); err != nil {
				t.Fatal(err)
			}
			appendBytes(t, path, damage(last))
			reader := mustOpen(t, ledger)
			ops, err := reader.List(bg)
			if err != nil || len(ops) != 1 || ops[0].ID != kept.ID {
				t.Fatalf("List over a torn tail = %v, %v; want only %s", ops, err, kept.ID)
			}
			if _, err := reader.Add(bg, tunnelClosure(), "ben"); err != nil {
				t.Fatalf("Add over a torn tail: %v", err)
			}
			checkAfter := mustOpen(t, ledger)
			if ops, err := checkAfter.List(bg); err != nil || len(ops) != 2 {
				t.Fatalf("after the next write: %d operations, %v; want 2", len(ops), err)
			}
		})
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestEmbeddedDamage: a bad record with intact ones after it is damage,
// never skipped: reads and writes fail with ErrCorrupt and an offset.
func TestEmbeddedDamage(t *testing.T) {
	ledger := filepath.Join(t.TempDir(), "ledger.db")
	path := EmbeddedPath(ledger)
	s := mustOpen(t, ledger)
	for range 3 {
		if _, err := s.Add(bg, tunnelClosure(), "ana"); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := os.ReadFile(path)
	second := strings.Index(string(raw), "\n") + 1 // the first change, after the header
	raw[second+30] ^= 0x20
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(bg, ledger); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("offset %d", second)) {
		t.Errorf("Open of a damaged file = %v, want ErrCorrupt at offset %d", err, second)
	}
	if _, err := mustOpenDamaged(ledger).Add(bg, tunnelClosure(), "ana"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Add to a damaged file = %v, want ErrCorrupt", err)
	}
	if err := os.WriteFile(path, []byte("not operations\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(bg, ledger); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open of another file = %v, want ErrCorrupt", err)
	}
}

// mustOpenDamaged returns a store on a file without reading it first, as
// one opened before the damage happened and read nothing yet.
func mustOpenDamaged(ledger string) Store {
	f, err := os.OpenFile(EmbeddedPath(ledger), os.O_RDWR, 0)
	if err != nil {
		panic(err)
	}
	return &embedded{path: EmbeddedPath(ledger), f: f, st: newMemState()}
}

// TestEmbeddedBesideTheLedger: the operations live in their own file next
// to the ledger's, never in it, and Open needs the directory to exist.
func TestEmbeddedBesideTheLedger(t *testing.T) {
	dir := t.TempDir()
	ledger := filepath.Join(dir, "ledger.db")
	if _, err := mustOpen(t, ledger).Add(bg, tunnelClosure(), "ana"); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "ledger.db.operations" {
		t.Errorf("the directory holds %v, want only ledger.db.operations", entries)
	}
	if _, err := Open(bg, filepath.Join(dir, "missing", "ledger.db")); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Open in a missing directory = %v", err)
	}
}

// TestEmbeddedReportsOnlyChanges: a replica reporting the same outcomes
// again (every swap, every change) does not grow the file.
func TestEmbeddedReportsOnlyChanges(t *testing.T) {
	ledger := filepath.Join(t.TempDir(), "ledger.db")
	s := mustOpen(t, ledger)
	added, err := s.AddAll(bg, []Operation{tunnelClosure(), tunnelClosure()}, "ana")
	if err != nil {
		t.Fatal(err)
	}
	report := []Resolution{{ID: added[0].ID, Resolved: true, Segments: 4}, {ID: added[1].ID, Detail: "way 6176755 not in the release"}}
	if err := s.Report(bg, "v1", report); err != nil {
		t.Fatal(err)
	}
	size := fileSize(t, EmbeddedPath(ledger))
	if err := s.Report(bg, "v1", report); err != nil {
		t.Fatal(err)
	}
	if got := fileSize(t, EmbeddedPath(ledger)); got != size {
		t.Errorf("the same report again grew the file from %d to %d bytes", size, got)
	}
	report[1].Resolved, report[1].Segments = true, 2
	if err := s.Report(bg, "v1", report); err != nil {
		t.Fatal(err)
	}
	if rs, _ := mustOpen(t, ledger).Resolutions(bg); len(rs) != 2 || !rs[0].Resolved || !rs[1].Resolved {
		t.Errorf("after a changed outcome: %+v", rs)
	}
}

// TestEmbeddedDiskFull: on a full disk, a write fails with ErrUnavailable
// and leaves nothing half written; readers keep what was there, and once
// space is freed writes work again with nothing lost.
func TestEmbeddedDiskFull(t *testing.T) {
	dir := ledgertest.SmallDisk(t, 1<<20)
	ledger := filepath.Join(dir, "ledger.db")
	s := mustOpen(t, ledger)
	kept, err := s.Add(bg, tunnelClosure(), "ana")
	if err != nil {
		t.Fatal(err)
	}
	filler := ledgertest.Fill(t, dir)
	size := fileSize(t, EmbeddedPath(ledger))
	big := tunnelClosure()
	big.Reason = strings.Repeat("r", MaxTextLen)
	var failed error
	for range 100 { // the filesystem may still hold part of a page
		if _, failed = s.Add(bg, big, "ana"); failed != nil {
			break
		}
	}
	if !errors.Is(failed, ErrUnavailable) {
		t.Fatalf("Add on a full disk = %v, want ErrUnavailable", failed)
	}
	reader := mustOpen(t, ledger)
	before, err := reader.List(bg)
	if err != nil || before[0].ID != kept.ID {
		t.Fatalf("List on a full disk = %v, %v", before, err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(bg, tunnelClosure(), "ana"); err != nil {
		t.Fatalf("Add once space is free: %v", err)
	}
	after, err := mustOpen(t, ledger).List(bg)
	if err != nil || len(after) != len(before)+1 {
		t.Fatalf("after the disk filled and freed: %d operations (%v), want %d", len(after), err, len(before)+1)
	}
	t.Logf("the file grew from %d bytes before the disk filled; %d operations fitted in the last page", size, len(before)-1)
}

// TestRecoverEmbedded: a file damaged before its last record is refused;
// RecoverEmbedded keeps every intact record, drops the damaged one, keeps
// the damaged file aside, and the store opens and writes again.
func TestRecoverEmbedded(t *testing.T) {
	ledger := filepath.Join(t.TempDir(), "ledger.db")
	path := EmbeddedPath(ledger)
	s := mustOpen(t, ledger)
	added, err := s.AddAll(bg, []Operation{tunnelClosure(), tunnelClosure()}, "ana")
	if err != nil {
		t.Fatal(err)
	}
	mark := fileSize(t, path)
	if _, err := s.Review(bg, added[0].ID, "ben"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Review(bg, added[1].ID, "ben"); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	raw[mark+20] ^= 0x01 // the first review
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(bg, ledger); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open of a damaged file = %v, want ErrCorrupt", err)
	}
	rep, err := RecoverEmbedded(bg, ledger)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kept != 3 || len(rep.Damaged) != 1 || rep.Damaged[0].Offset != mark {
		t.Errorf("report %+v: want 3 records kept (header, adds, second review) and the damage at %d", rep, mark)
	}
	if backup, err := os.ReadFile(rep.Backup); err != nil || !bytes.Equal(backup, raw) {
		t.Errorf("the damaged file was not kept aside as is: %v", err)
	}
	r := mustOpen(t, ledger)
	ops, err := r.List(bg)
	if err != nil || len(ops) != 2 || ops[0].State != ReviewDraft || ops[1].State != ReviewReviewed {
		t.Fatalf("after recover: %+v, %v; want the first a draft again (its review lost), the second reviewed", ops, err)
	}
	if _, err := r.Review(bg, added[0].ID, "ben"); err != nil {
		t.Errorf("writing after recover: %v", err)
	}
}
