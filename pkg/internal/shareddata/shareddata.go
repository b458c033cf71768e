// Package shareddata finds the project's test data: the real OSM extracts
// and SRTM tiles in ../shared/data, beside the repository and never copied
// into it (../shared/data/README.md says what each file is and where it was
// taken from). A test that needs a file asks Path, which skips the test with
// the path and that pointer when the file is absent, so a developer without
// the data still runs everything else. CI always has the data: .ci/run sets
// MAPS_REQUIRE_SHARED_DATA, and then an absent file fails the test instead.
package shareddata

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// RequireEnv names the environment variable that turns a skip for absent
// data into a failure.
const RequireEnv = "MAPS_REQUIRE_SHARED_DATA"

// Dir returns the data directory, ../shared/data beside the repository
// root, found from this file's location so that it does not depend on the
// test's working directory.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "data")
}

// Path returns the path of name under Dir. When the file is absent it
// skips tb with a message naming the path and the data's README, or fails
// tb when RequireEnv is set.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	if err := Missing(name); err != nil {
		if Required() {
			tb.Fatal(err)
		} else {
			tb.Skip(err)
		}
	}
	return filepath.Join(Dir(), name)
}

// Missing returns why one of names is absent from Dir, or nil when all are
// there: the message Path skips with, for TestMain, which has no
// testing.TB.
func Missing(names ...string) error {
	dir := filepath.Clean(Dir())
	for _, name := range names {
		p := filepath.Join(dir, name)
		_, err := os.Stat(p)
		if err == nil {
			continue
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the message already
		}
		return fmt.Errorf("test data %s is absent (%w): it is the project's shared data, kept beside the repository, "+
			"never in it; %s says what each file is and where it comes from (CI always has it)",
			p, err, filepath.Join(dir, "README.md"))
	}
	return nil
}

// Required reports whether absent data must fail the tests rather than skip
// them: RequireEnv is set to anything but "" or "0".
func Required() bool {
	v := os.Getenv(RequireEnv)
	return v != "" && v != "0"
}
