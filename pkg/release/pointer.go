package release

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CurrentFile is the name of the pointer, in a directory of releases, to the
// release mapd serves: a symlink to the release directory, or a file holding
// its name.
const CurrentFile = "current"

// CurrentName returns the name of the release dir/current points at, or ""
// when there is no pointer.
func CurrentName(dir string) (string, error) {
	p := filepath.Join(dir, CurrentFile)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("release: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("release: %w", err)
		}
		return filepath.Base(target), nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("release: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// Use points dir/current at the release dir/name. It writes a new symlink
// beside the pointer and renames it over the old one, so a reader (mapd
// polling the pointer) sees either the old or the new release, never a
// missing or half-written pointer. The target is relative, so the directory
// of releases can be moved or mounted elsewhere.
func Use(dir, name string) error {
	if err := CheckDataVersion(name); err != nil {
		return fmt.Errorf("release: use %s: %w", name, err)
	}
	if _, err := ReadManifest(filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("release: use %s: %w", name, err)
	}
	tmp, err := os.MkdirTemp(dir, ".current.tmp-")
	if err != nil {
		return fmt.Errorf("release: use %s: %w", name, err)
	}
	defer os.RemoveAll(tmp)
	link := filepath.Join(tmp, CurrentFile)
	if err := os.Symlink(name, link); err != nil {
		return fmt.Errorf("release: use %s: %w", name, err)
	}
	// Rename from a subdirectory of dir: the link's relative target is
	// resolved from the directory it ends up in, so it is still right.
	if err := os.Rename(link, filepath.Join(dir, CurrentFile)); err != nil {
		return fmt.Errorf("release: use %s: point %s at it: %w", name, filepath.Join(dir, CurrentFile), err)
	}
	return syncDir(dir)
}

// Resolve finds the release to serve in dir: dir itself when it holds a
// manifest, else the release named by dir/current (a symlink to a release
// directory, or a file holding its name).
func Resolve(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return dir, nil
	}
	cur := filepath.Join(dir, "current")
	fi, err := os.Lstat(cur)
	if err != nil {
		return "", fmt.Errorf("release: %s holds no manifest.json and no current pointer: %w", dir, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(cur)
		if err != nil {
			return "", fmt.Errorf("release: %w", err)
		}
		return target, nil
	}
	b, err := os.ReadFile(cur)
	if err != nil {
		return "", fmt.Errorf("release: %w", err)
	}
	name := strings.TrimSpace(string(b))
	if err := CheckDataVersion(name); err != nil {
		return "", fmt.Errorf("release: %s: %w", cur, err)
	}
	return filepath.Join(dir, name), nil
}
