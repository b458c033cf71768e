package ledger

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The crash test runs a child process (this test binary again) that charges
// one account from 32 goroutines and prints each request id once its Commit
// returned, like a server sending 200. The parent kills it with SIGKILL
// mid-load, reopens the file and checks that the books balance and that
// every acknowledged request has its usage record.
//
// Most acknowledged charges are then only in the journal, so reopening
// replays them. With the smallest journal the child also starts the journal
// over every few hundred charges, so the kill lands near one of those too.
const (
	crashEnvPath    = "LEDGER_CRASH_CHILD_PATH"
	crashEnvKey     = "LEDGER_CRASH_CHILD_KEY"
	crashEnvJournal = "LEDGER_CRASH_CHILD_JOURNAL"
)

func TestBoltCrashMidLoad(t *testing.T) {
	if path := os.Getenv(crashEnvPath); path != "" {
		size, _ := strconv.ParseInt(os.Getenv(crashEnvJournal), 10, 64)
		crashChild(path, os.Getenv(crashEnvKey), size)
		return
	}
	for _, tc := range []struct {
		name        string
		journalSize int64
		acks        int
	}{{"default journal", 0, 500}, {"smallest journal", minJournalSize, 3000}} {
		t.Run(tc.name, func(t *testing.T) { crashMidLoad(t, tc.journalSize, tc.acks) })
	}
}

func crashMidLoad(t *testing.T, journalSize int64, acks int) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := Open(bg, path)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := s.CreateAccount(bg, 1_000_000, &Caps{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	acked := runAndKill(t, path, acct.Key.Secret.Reveal(), journalSize, acks)

	s = openStore(t, path, Options{})
	mustVerify(t, s)
	for _, id := range acked {
		if _, err := s.LookupUsage(bg, id); err != nil {
			t.Errorf("request %s was acknowledged but has no usage record: %v", id, err)
		}
	}
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 1_000_000-a.Usage.AllTime || a.Usage.Requests < int64(len(acked)) {
		t.Errorf("after the crash: %+v with %d acknowledged", a, len(acked))
	}
	t.Logf("killed after %d acknowledged charges; %d usage records survive", len(acked), a.Usage.Requests)
}

// runAndKill starts the child, collects acknowledged request ids until it
// has want of them, then SIGKILLs the child.
func runAndKill(t *testing.T, path, key string, journalSize int64, want int) []string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBoltCrashMidLoad$")
	cmd.Env = append(os.Environ(), crashEnvPath+"="+path, crashEnvKey+"="+key,
		crashEnvJournal+"="+strconv.FormatInt(journalSize, 10))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	lines := bufio.NewScanner(out)
	deadline := time.Now().Add(20 * time.Second)
	for len(acked) < want && time.Now().Before(deadline) && lines.Scan() {
		acked = append(acked, lines.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() { // acknowledgements already written before the kill count too
		acked = append(acked, lines.Text())
	}
	_ = cmd.Wait()
	if len(acked) < want {
		t.Fatalf("child acknowledged only %d charges", len(acked))
	}
	return acked
}

// crashChild charges forever until killed.
func crashChild(path, key string, journalSize int64) {
	s, err := OpenWith(bg, path, Options{JournalSize: journalSize})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	info, err := s.Authenticate(bg, key)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Go(func() {
			for i := 0; ; i++ {
				id := "crash-" + strconv.Itoa(w) + "-" + strconv.Itoa(i)
				r, err := s.Reserve(bg, info, "directions", 1, id)
				if err == nil {
					err = s.Commit(bg, r)
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				mu.Lock()
				fmt.Println(id) // the "200": sent only after Commit returned
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
