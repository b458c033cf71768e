package open_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMustExistBolt: with MustExist a missing file is refused and not
// created; without, it is created; an existing one opens either way.
func TestMustExistBolt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.db")
	if _, err := OpenWith(bg, path, Options{MustExist: true}); !errors.Is(err, ErrNoLedger) || !strings.Contains(err.Error(), path) {
		t.Fatalf("MustExist on a missing file: %v, want ErrNoLedger naming the path", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Fatalf("a refused open left %d files behind", len(entries))
	}
	s := openStore(t, path, Options{})
	s.Close()
	s = openStore(t, path, Options{MustExist: true})
	s.Close()
}

// TestMustExistPostgres: a schema without the ledger's tables is refused
// with MustExist and set up without.
func TestMustExistPostgres(t *testing.T) {
	dsn := newPostgresDSN(t)
	if _, err := OpenWith(bg, dsn, Options{MustExist: true}); !errors.Is(err, ErrNoLedger) {
		t.Fatalf("MustExist on an empty schema: %v, want ErrNoLedger", err)
	}
	s := openStore(t, dsn, Options{})
	s.Close()
	s = openStore(t, dsn, Options{MustExist: true})
	s.Close()
}

// TestMissingSchema: a search_path naming no schema says so, whatever the
// options, instead of "backend unavailable".
func TestMissingSchema(t *testing.T) {
	dsn := pgTestDSN + "&search_path=ledger_test_no_such_schema"
	for _, opts := range []Options{{}, {MustExist: true}} {
		_, err := OpenWith(bg, dsn, opts)
		if !errors.Is(err, ErrMissingSchema) || errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "ledger_test_no_such_schema") {
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
	_, err := OpenWith(bg, filepath.Join(file, "ledger.db"), Options{})
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, syscall.ENOTDIR) {
		t.Fatalf("open under a plain file: %v, want ErrUnavailable wrapping ENOTDIR", err)
	}
}
