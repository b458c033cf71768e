package compiletest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The same mapc binary compiling the same input files with the same flags
// writes the same release (releases are identical but for build_time: the
// compile's determinism tests check it). So compiled fixtures are kept in a
// cache shared by every test binary of a run: `go test ./...` then
// `go test -race ./...` compiled Andorra about twenty times and the
// Liechtenstein extract and the grid towns dozens, several minutes of a CI
// run on two cores; each is now compiled once. A cached release is read
// only: tests that corrupt or edit a release build their own
// (AndorraRelease, EditedAndorraRelease).
//
// The key hashes the mapc binary's bytes, so any change to the compiler's
// code compiles afresh; entries unused for a day are removed.

// cacheDir is where compiled fixtures are kept: $MAPS_FIXTURE_CACHE, or
// mapsco-fixtures under the system's temporary directory.
func cacheDir() string {
	if d := os.Getenv("MAPS_FIXTURE_CACHE"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "mapsco-fixtures")
}

// cacheTTL is how long an entry nobody used is kept.
const cacheTTL = 24 * time.Hour

// compileCached runs `mapc build` with args plus --out, once per distinct
// (mapc binary, inputs' contents, args), and returns the directory of the
// release named version. inputs are the files args name whose content
// decides the release (the PBF, DEMs); their paths are left out of the key,
// so a fixture written to a fresh temporary directory still hits.
func compileCached(tb testing.TB, version string, inputs []string, args []string) string {
	tb.Helper()
	mapc := mapcIn(tb, "")
	key, err := cacheKey(mapc, inputs, args)
	if err != nil {
		tb.Fatalf("compiled fixture %s: %v", version, err)
	}
	root := cacheDir()
	entry := filepath.Join(root, key)
	if _, err := os.Stat(filepath.Join(entry, version)); err == nil {
		now := time.Now()
		os.Chtimes(entry, now, now) // used: keep it another day
		return filepath.Join(entry, version)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		tb.Fatalf("fixture cache %s: %v", root, err)
	}
	pruneCache(root)
	tmp, err := os.MkdirTemp(root, ".building-")
	if err != nil {
		tb.Fatalf("fixture cache %s: %v", root, err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(mapc, append(append([]string{"build"}, args...), "--out", tmp)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("mapc build %s: %v\n%s", version, err, b)
	}
	// Another test binary may have compiled the same entry meanwhile: the
	// first rename wins and both use it.
	if err := os.Rename(tmp, entry); err != nil {
		if _, statErr := os.Stat(filepath.Join(entry, version)); statErr != nil {
			tb.Fatalf("fixture cache: keep %s as %s: %v", tmp, entry, err)
		}
	}
	return filepath.Join(entry, version)
}

// cacheKey hashes the mapc binary, the profiles, the contents of inputs
// and args with the paths of inputs replaced by their place in the list.
func cacheKey(mapc string, inputs, args []string) (string, error) {
	h := sha256.New()
	profiles, err := filepath.Glob(filepath.Join(Root(), "profiles", "*"))
	if err != nil {
		return "", err
	}
	for _, f := range append(append([]string{mapc}, profiles...), inputs...) {
		if err := hashFile(h, f); err != nil {
			return "", err
		}
	}
	for _, a := range args {
		for i, in := range inputs {
			a = strings.ReplaceAll(a, in, fmt.Sprintf("<input %d>", i))
		}
		fmt.Fprintf(h, "%q\n", a)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

func hashFile(h io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("hash %s: %w", path, err)
	}
	defer f.Close()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("hash %s: %w", path, err)
	}
	return nil
}

// pruneCache removes entries of root unused for cacheTTL, and builds
// abandoned that long ago (a test binary killed mid-compile).
func pruneCache(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < cacheTTL {
			continue
		}
		os.RemoveAll(filepath.Join(root, e.Name())) // best effort: another process may be removing it too
	}
}
