package embedded

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// The crash test runs a child process (this test binary again) that charges
// one account from 32 goroutines, each holding its reservation for up to
// 2 ms as a request computes, and prints "C id" once a Commit returned, like
// a server sending 200, or, for one request in eight, releases it and
// prints "R id", like a server answering a failure. The parent kills it
// with SIGKILL mid-load, reopens the file and checks that the books
// balance, that every acknowledged request has its usage record and that
// no released one has.
//
// Most acknowledged charges are then only in the journal, so reopening
// replays them. With the smallest journal the child also starts the journal
// over every few hundred charges, carrying the charges of the requests in
// flight into the new epoch, so the kill lands near one of those too. Both
// sync modes run it: SyncBackground acknowledges charges that are written
// and not yet synced, which a kill (unlike a power cut) must not lose.
const (
	crashEnvPath    = "LEDGER_CRASH_CHILD_PATH"
	crashEnvKey     = "LEDGER_CRASH_CHILD_KEY"
	crashEnvJournal = "LEDGER_CRASH_CHILD_JOURNAL"
	crashEnvSync    = "LEDGER_CRASH_CHILD_SYNC"
)

func TestBoltCrashMidLoad(t *testing.T) {
	if path := os.Getenv(crashEnvPath); path != "" {
		size, _ := strconv.ParseInt(os.Getenv(crashEnvJournal), 10, 64)
		mode, err := ledger.ParseSync(os.Getenv(crashEnvSync))
		if err != nil {
			t.Fatal(err)
		}
		crashChild(path, os.Getenv(crashEnvKey), ledger.Options{JournalSize: size, Sync: mode})
		return
	}
	for _, mode := range syncModes {
		for _, tc := range []struct {
			name        string
			journalSize int64
			acks        int
		}{{"default journal", 0, 500}, {"smallest journal", minJournalSize, 3000}} {
			t.Run(mode.String()+"/"+tc.name, func(t *testing.T) { crashMidLoad(t, ledger.Options{JournalSize: tc.journalSize, Sync: mode}, tc.acks) })
		}
	}
}

func crashMidLoad(t *testing.T, child ledger.Options, acks int) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	s, err := Open(bg, path, child) // creates the journal at the child's size (an existing one keeps its own)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := s.CreateAccount(bg, 1_000_000, &ledger.Caps{})
	if err != nil {
		t.Fatal(err)
	}
	epoch := s.(*boltStore).journal.epoch
	s.Close()

	acked, released := runAndKill(t, path, acct.Key.Secret.Reveal(), child, acks)

	s = openStore(t, path, ledger.Options{})
	// Closing, the child's open and this one each raise the epoch once;
	// every start-over of the child's journal did too.
	wraps := s.(*boltStore).journal.epoch - epoch - 3
	if child.JournalSize == minJournalSize && wraps < 5 {
		t.Errorf("the child's journal started over %d times; the test wants it to do so often", wraps)
	}
	ledgertest.MustVerify(t, s)
	for _, id := range acked {
		if _, err := s.LookupUsage(bg, id); err != nil {
			t.Errorf("request %s was acknowledged but has no usage record: %v", id, err)
		}
	}
	for _, id := range released {
		if u, err := s.LookupUsage(bg, id); err == nil {
			t.Errorf("request %s was released but is charged: %+v", id, u)
		}
	}
	a, err := s.GetAccount(bg, acct.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Balance != 1_000_000-a.Usage.AllTime || a.Usage.Requests < int64(len(acked)) {
		t.Errorf("after the crash: %+v with %d acknowledged", a, len(acked))
	}
	t.Logf("killed after %d acknowledged and %d released requests, %d journal start-overs; %d usage records survive", len(acked), len(released), wraps, a.Usage.Requests)
}

// runAndKill starts the child, collects the ids of acknowledged and of
// released requests until it has want acknowledged, then SIGKILLs the child.
func runAndKill(t *testing.T, path, key string, child ledger.Options, want int) (acked, released []string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBoltCrashMidLoad$")
	cmd.Env = append(os.Environ(), crashEnvPath+"="+path, crashEnvKey+"="+key,
		crashEnvJournal+"="+strconv.FormatInt(child.JournalSize, 10), crashEnvSync+"="+child.Sync.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	read := func() {
		switch line := lines.Text(); {
		case strings.HasPrefix(line, "C "):
			acked = append(acked, line[2:])
		case strings.HasPrefix(line, "R "):
			released = append(released, line[2:])
		default:
			t.Errorf("child said %q", line)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(acked) < want && time.Now().Before(deadline) && lines.Scan() {
		read()
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() { // answers already written before the kill count too
		read()
	}
	_ = cmd.Wait()
	if len(acked) < want {
		t.Fatalf("child acknowledged only %d charges", len(acked))
	}
	return acked, released
}

// crashChild charges and releases forever until killed.
func crashChild(path, key string, opts ledger.Options) {
	s, err := Open(bg, path, opts)
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
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for i := 0; ; i++ {
				id := "crash-" + strconv.Itoa(w) + "-" + strconv.Itoa(i)
				r, err := s.Reserve(bg, info, "directions", 1, id)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond) // computing
				answer := "C "                                               // the "200": sent only after Commit returned
				if rng.IntN(8) == 0 {
					answer = "R " // the failure: sent only after Release returned
					err = s.Release(bg, r)
				} else {
					err = s.Commit(bg, r)
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				mu.Lock()
				fmt.Println(answer + id)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
