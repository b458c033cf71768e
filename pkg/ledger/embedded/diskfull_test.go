package embedded

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// lockedBuffer is a log sink for a store's logger.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestBoltDiskFull: issue 19 item 5 on a small tmpfs that fills. With the
// filesystem full the store refuses charges (503), never takes one it
// cannot write; once space is freed it takes charges again by itself,
// within a second, and logs the change of state once each way. Both parts
// that write are broken in turn: bbolt (the applier's transactions), and
// the journal (its pages are punched out, as on a filesystem where an
// overwrite needs new space, so its writes fail too and it must start
// over).
func TestBoltDiskFull(t *testing.T) {
	for _, journalToo := range []bool{false, true} {
		t.Run(fmt.Sprintf("journal fails too: %v", journalToo), func(t *testing.T) { diskFull(t, journalToo) })
	}
}

func diskFull(t *testing.T, journalToo bool) {
	dir := ledgertest.SmallDisk(t, 12<<20)
	var log lockedBuffer
	path := filepath.Join(dir, "ledger.db")
	s := openStore(t, path, ledger.Options{Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	_, key := ledgertest.NewAccount(t, s, funded, &ledger.Caps{})
	var charged []string
	try := func(id string) error {
		r, err := s.Reserve(bg, key, "directions", 1, id)
		if err == nil {
			if err = s.Commit(bg, r); err == nil {
				charged = append(charged, id)
			}
		}
		return err
	}
	for i := range 100 {
		if err := try(fmt.Sprintf("before_%04d", i)); err != nil {
			t.Fatal(err)
		}
	}

	if journalToo {
		punchJournal(t, s.(*boltStore))
	}
	filler := ledgertest.Fill(t, dir)
	refused := 0
	for i := 0; refused == 0 && i < 20_000; i++ {
		err := try(fmt.Sprintf("full_%05d", i))
		switch {
		case errors.Is(err, ledger.ErrUnavailable):
			refused++
		case err != nil:
			t.Fatalf("charge %d on a full disk: %v, want success or ErrUnavailable", i, err)
		}
		if i%100 == 99 {
			s.LookupUsage(bg, "any") // readers hurry the applier to bbolt
		}
	}
	if refused == 0 {
		t.Fatalf("20,000 charges on a full disk were all taken")
	}
	if err := s.(*boltStore).Health(); err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("Health on a full disk = %v, want the cause", err)
	}
	for i := range 50 { // down stays down: never a charge it cannot write
		if err := try(fmt.Sprintf("down_%02d", i)); !errors.Is(err, ledger.ErrUnavailable) {
			t.Fatalf("charge %d while down: %v, want ErrUnavailable", i, err)
		}
		time.Sleep(2 * time.Millisecond)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	freed := time.Now()
	for try(fmt.Sprintf("after_%v", time.Since(freed))) != nil {
		if time.Since(freed) > 5*time.Second {
			t.Fatalf("still refusing 5 s after space was freed: %v", s.(*boltStore).Health())
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d charges taken, refused after the disk filled, taken again %v after space was freed",
		len(charged), time.Since(freed).Round(time.Millisecond))
	for i := range 100 {
		if err := try(fmt.Sprintf("later_%04d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range charged {
		if _, err := s.LookupUsage(bg, id); err != nil {
			t.Fatalf("request %s was charged but has no usage record: %v", id, err)
		}
	}
	ledgertest.MustVerify(t, s)
	lines := log.String()
	if n, m := strings.Count(lines, `"level":"ERROR"`), strings.Count(lines, `"msg":"ledger: writes succeed again; metering resumed"`); n != 1 || m != 1 {
		t.Errorf("log has %d ERROR and %d recovery lines, want one each:\n%s", n, m, lines)
	}
	cause := "applying"
	if journalToo {
		cause = "to journal"
	}
	if !strings.Contains(lines, `"level":"INFO","msg":"ledger: writes succeed again`) || !strings.Contains(lines, "no space left on device") ||
		!strings.Contains(lines, cause) {
		t.Errorf("log does not name the cause (%s) or the recovery:\n%s", cause, lines)
	}
	t.Log(lines)
}

// punchJournal frees the journal's pages past the writer (keeping its
// size), so that writing there needs space the full disk does not have.
func punchJournal(t *testing.T, s *boltStore) {
	t.Helper()
	f, err := os.OpenFile(s.journal.path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var off int64
	s.commits.exclusive(func() { off = s.journal.off })
	off = (off + 4095) &^ 4095
	if err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, off, s.journal.size-off); err != nil {
		t.Fatalf("punching the journal: %v", err)
	}
}
