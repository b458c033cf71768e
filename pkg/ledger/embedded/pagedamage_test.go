package embedded

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
)

// bboltWithUsage makes a closed ledger whose bbolt file holds n usage
// records, and returns its path, the account and the file's bytes.
func bboltWithUsage(t *testing.T, n int) (string, ledger.KeyInfo, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ledger.db")
	s := openStore(t, path, ledger.Options{})
	_, key := ledgertest.NewAccount(t, s, funded, &ledger.Caps{})
	for i := range n {
		ledgertest.Charge(t, s, key, "directions", 1, fmt.Sprintf("req_%06d", i))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, key, raw
}

// usageLeaf returns the offset of a leaf page of the usage bucket in the
// middle of the file (bbolt's page header: id u64, flags u16 with 0x02 for
// a leaf; page size 4 KiB).
func usageLeaf(t *testing.T, raw []byte) int {
	t.Helper()
	var leaves []int
	for off := 2 << 12; off+4096 <= len(raw); off += 4096 {
		if binary.LittleEndian.Uint16(raw[off+8:]) == 0x02 && bytes.Contains(raw[off:off+4096], []byte(`"request_id":"req_`)) {
			leaves = append(leaves, off)
		}
	}
	if len(leaves) < 3 {
		t.Fatalf("found %d usage leaves", len(leaves))
	}
	return leaves[len(leaves)/2]
}

// TestBoltDamagedPages: damage to bbolt's pages is an ErrCorrupt error from
// Open, or from the reads that meet it, and never a panic or a SIGBUS.
func TestBoltDamagedPages(t *testing.T) {
	path, key, raw := bboltWithUsage(t, 3000)
	for _, tc := range []struct {
		name string
		edit func(b []byte) []byte
		// want is in Open's error; with "", Open may succeed (where the
		// damage lies depends on how bbolt laid the file out), and then
		// Verify must report it and the reads that meet it fail.
		want string
	}{
		{"page headers garbled", func(b []byte) []byte {
			for off := 2 << 12; off < len(b); off += 4096 {
				for i := range 16 {
					b[off+i] ^= 0x5a
				}
			}
			return b
		}, "is damaged"},
		{"data pages zeroed", func(b []byte) []byte { clear(b[2<<12 : len(b)/2]); return b }, ""},
		{"truncated to 8 KiB", func(b []byte) []byte { return b[:8<<10] }, "is truncated"},
		{"truncated to half", func(b []byte) []byte { return b[:len(b)/2] }, "is truncated"},
		{"meta pages zeroed", func(b []byte) []byte { clear(b[:2<<12]); return b }, "neither meta page is valid"},
		{"a usage leaf zeroed", func(b []byte) []byte { off := usageLeaf(t, b); clear(b[off : off+4096]); return b }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "ledger.db")
			if err := os.WriteFile(p, tc.edit(bytes.Clone(raw)), 0o600); err != nil {
				t.Fatal(err)
			}
			copyFile(t, path+journalSuffix, p+journalSuffix)
			s, err := Open(bg, p, ledger.Options{})
			if tc.want != "" {
				if !errors.Is(err, ledger.ErrCorrupt) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
					t.Fatalf("Open = %v, want ErrCorrupt naming %s and saying %q", err, p, tc.want)
				}
				t.Log(err)
				return
			}
			if errors.Is(err, ledger.ErrCorrupt) {
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatalf("Open = %v, want ErrCorrupt or success", err)
			}
			defer s.Close()
			if _, err := s.GetAccount(bg, key.AccountID); err != nil && !errors.Is(err, ledger.ErrCorrupt) {
				t.Errorf("GetAccount = %v, want an answer or ErrCorrupt", err)
			}
			report, err := s.Verify(bg)
			if err != nil || report.OK() || len(report.Damage) == 0 {
				t.Errorf("Verify = %+v, %v; want the damage reported", report, err)
			}
			var failed int
			for i := range 3000 {
				_, err := s.LookupUsage(bg, fmt.Sprintf("req_%06d", i))
				switch {
				case errors.Is(err, ledger.ErrCorrupt) && errors.Is(err, ledger.ErrUnavailable):
					failed++
				case err != nil && !errors.Is(err, ledger.ErrUnknownRequest):
					t.Fatalf("LookupUsage = %v, want ErrCorrupt or an answer", err)
				}
			}
			if failed == 0 && tc.name == "a usage leaf zeroed" {
				t.Errorf("no lookup met the zeroed page")
			}
		})
	}
}

// TestBoltFileShrunkUnderMapping: a ledger file cut short while mapped
// makes reads of the missing pages fault (SIGBUS); each costs its caller an
// ErrCorrupt error, and the process lives on.
func TestBoltFileShrunkUnderMapping(t *testing.T) {
	path, key, _ := bboltWithUsage(t, 3000)
	s, err := Open(bg, path, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustTruncate(t, path, 8<<10)
	if _, err := s.GetAccount(bg, key.AccountID); !errors.Is(err, ledger.ErrCorrupt) {
		t.Errorf("GetAccount on a shrunk file = %v, want ErrCorrupt", err)
	}
	if _, err := s.LookupUsage(bg, "req_001500"); !errors.Is(err, ledger.ErrCorrupt) {
		t.Errorf("LookupUsage on a shrunk file = %v, want ErrCorrupt", err)
	}
	if err := s.Close(); err == nil {
		t.Errorf("Close of a shrunk ledger succeeded")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
