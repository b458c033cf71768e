package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/ledger/embedded"
)

// TestLedgerDamage: issue 19 item 4 against the real binary. After a kill
// -9 under load, a byte flipped in the journal stops `serve`, `ledger
// verify` and `account show` with the damage's offset and the way out, and
// none of them panics; `ledger recover` applies every intact record and
// says what is lost, after which the books verify and every 200 but the
// damaged record's has its usage record. Damaged bbolt pages, a truncated
// bbolt file and an empty one beside the journal stop them too, with a
// clear error and never a panic or SIGBUS.
func TestLedgerDamage(t *testing.T) {
	dsn := ledgerFile(t)
	acct := createAccount(t, dsn, 1_000_000, "--daily", "0")
	s := serveMetered(t, dsn, "--rate-limit", "1000000")
	ok, counts := hammer(t, []*mapdProc{s}, acct.Secret, 16, 40)
	s.kill9()
	if counts["200"] != 640 {
		t.Fatalf("statuses before the kill: %v", counts)
	}

	offs := journalOffsets(t, dsn+"-journal")
	mid := offs[len(offs)/2]
	lostID := flipJournalByte(t, dsn+"-journal", mid)
	wantErr := []string{fmt.Sprintf("is damaged at offset %d", mid), "mapd ledger recover --ledger " + dsn}
	for _, args := range [][]string{
		{"ledger", "verify", "--ledger", dsn},
		{"account", "show", acct.ID, "--ledger", dsn},
		{"serve", "--listen", freeAddr(t), "--data", compiletest.Andorra(t), "--ledger", dsn},
	} {
		mustRefuse(t, args, wantErr...)
	}

	out := mustCLI(t, "ledger", "recover", "--ledger", dsn)
	var rep embedded.RecoveryReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("ledger recover printed %q: %v", out, err)
	}
	if !rep.Damaged || rep.AfterDamage != len(offs)-len(offs)/2-1 || len(rep.LostRanges) != 1 || rep.LostRanges[0].Offset != mid {
		t.Errorf("recover reported %s; want %d records after the damage at %d", out, len(offs)-len(offs)/2-1, mid)
	}
	verifyLedger(t, dsn)
	_, missing := usageOf(t, dsn, ok)
	if len(missing) > 1 || (len(missing) == 1 && missing[0] != lostID) {
		t.Errorf("200s without a usage record after recovery: %v; only the damaged record's (%s) may be lost", missing, lostID)
	}
	if a := showAccount(t, dsn, acct.ID); a.Balance != 1_000_000-a.Usage.AllTime || a.Usage.Requests < int64(len(ok)-1) {
		t.Errorf("account after recovery: %+v", a)
	}

	t.Run("bbolt", func(t *testing.T) { damagedBbolt(t, dsn, acct.ID) })
}

// damagedBbolt damages copies of a sound ledger's bbolt file.
func damagedBbolt(t *testing.T, sound, accountID string) {
	raw, err := os.ReadFile(sound)
	if err != nil {
		t.Fatal(err)
	}
	journal, err := os.ReadFile(sound + "-journal")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"page headers garbled", func(b []byte) []byte {
			for off := 2 << 12; off < len(b); off += 4 << 10 {
				for i := range 16 {
					b[off+i] ^= 0x5a
				}
			}
			return b
		}, "is damaged (opening it: bbolt failed"},
		{"truncated to 8 KiB", func(b []byte) []byte { return b[:8<<10] }, "is truncated"},
		{"zero length", func(b []byte) []byte { return b[:0] }, "is empty (0 bytes), but its journal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := ledgerFile(t)
			if err := os.WriteFile(dsn, tc.edit(append([]byte(nil), raw...)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dsn+"-journal", journal, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"ledger", "verify", "--ledger", dsn},
				{"account", "show", accountID, "--ledger", dsn},
				{"serve", "--listen", freeAddr(t), "--data", compiletest.Andorra(t), "--ledger", dsn},
			} {
				mustRefuse(t, args, dsn, tc.want)
			}
		})
	}
}

// mustRefuse runs mapd, which must exit 1 saying every want, and neither
// panic nor die of a signal.
func mustRefuse(t *testing.T, args []string, want ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, mapdBin, args...).CombinedOutput()
	ee, isExit := err.(*exec.ExitError)
	if !isExit || ee.ExitCode() != 1 {
		t.Errorf("mapd %s: %v, want exit status 1\n%s", args[0], err, out)
		return
	}
	for _, bad := range []string{"panic", "SIGBUS", "fatal error", "goroutine "} {
		if strings.Contains(string(out), bad) {
			t.Errorf("mapd %s printed %q:\n%s", args[0], bad, out)
		}
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Errorf("mapd %s did not say %q:\n%s", args[0], w, out)
		}
	}
}

// journalOffsets returns where each record of the journal's current run
// starts: records follow a 4 KiB header, each a u32 payload length, a u32
// CRC, a u64 epoch and the payload (pkg/ledger/journal.go).
func journalOffsets(t *testing.T, path string) []int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var offs []int64
	for off := 4 << 10; off+16 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[off:]))
		if n == 0 || off+16+n > len(b) || (len(offs) > 0 && binary.LittleEndian.Uint64(b[off+8:]) != binary.LittleEndian.Uint64(b[offs[0]+8:])) {
			break
		}
		offs = append(offs, int64(off))
		off += 16 + n
	}
	if len(offs) < 100 {
		t.Fatalf("the journal holds %d records", len(offs))
	}
	return offs
}

// flipJournalByte flips a byte in the payload of the record at off and
// returns the record's request id.
func flipJournalByte(t *testing.T, path string, off int64) string {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 16)
	if _, err := f.ReadAt(head, off); err != nil {
		t.Fatal(err)
	}
	payload := make([]byte, binary.LittleEndian.Uint32(head))
	if _, err := f.ReadAt(payload, off+16); err != nil {
		t.Fatal(err)
	}
	var rec struct {
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal(payload, &rec); err != nil {
		t.Fatal(err)
	}
	payload[len(payload)/2] ^= 0x08
	if _, err := f.WriteAt(payload, off+16); err != nil {
		t.Fatal(err)
	}
	return rec.RequestID
}
