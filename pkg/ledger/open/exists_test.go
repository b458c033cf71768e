package open_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/ledgertest"
	"github.com/mapsco/maps/pkg/ledger/open"
)

// TestMustExistBolt: with MustExist a missing file is refused and not
// created; without, it is created; an existing one opens either way.
func TestMustExistBolt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	if _, err := open.OpenWith(bg, path, ledger.Options{MustExist: true}); !errors.Is(err, ledger.ErrNoLedger) || !strings.Contains(err.Error(), path) {
		t.Fatalf("MustExist on a missing file: %v, want ErrNoLedger naming the path", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Fatalf("a refused open left %d files behind", len(entries))
	}
	s := openStore(t, path, ledger.Options{})
	s.Close()
	s = openStore(t, path, ledger.Options{MustExist: true})
	s.Close()
}

// TestMustExistPostgres: a schema without the ledger's tables is refused
// with MustExist and set up without.
func TestMustExistPostgres(t *testing.T) {
	dsn := newPostgresDSN(t)
	if _, err := open.OpenWith(bg, dsn, ledger.Options{MustExist: true}); !errors.Is(err, ledger.ErrNoLedger) {
		t.Fatalf("MustExist on an empty schema: %v, want ErrNoLedger", err)
	}
	s := openStore(t, dsn, ledger.Options{})
	s.Close()
	s = openStore(t, dsn, ledger.Options{MustExist: true})
	s.Close()
}

// TestMissingSchema: a search_path naming no schema says so, whatever the
// options, instead of "backend unavailable".
func TestMissingSchema(t *testing.T) {
	dsn := ledgertest.AdminDSN + "&search_path=ledger_test_no_such_schema"
	for _, opts := range []ledger.Options{{}, {MustExist: true}} {
		_, err := open.OpenWith(bg, dsn, opts)
		if !errors.Is(err, ledger.ErrMissingSchema) || errors.Is(err, ledger.ErrUnavailable) || !strings.Contains(err.Error(), "ledger_test_no_such_schema") {
			t.Errorf("open with %+v: %v, want ErrMissingSchema naming the search_path", opts, err)
		}
	}
}

// TestOpenKeepsTheCause: a ledger that cannot be opened for a reason of the
// file system is ErrUnavailable, and the reason itself stays visible to
// errors.Is (here a path through a plain file: ENOTDIR).
func TestOpenKeepsTheCause(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := open.OpenWith(bg, filepath.Join(file, "ledger.db"), ledger.Options{})
	if !errors.Is(err, ledger.ErrUnavailable) || !errors.Is(err, syscall.ENOTDIR) {
		t.Fatalf("open under a plain file: %v, want ErrUnavailable wrapping ENOTDIR", err)
	}
}
