package release

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrExists means the release directory is already there; releases are
// immutable, so mapc refuses to overwrite one.
var ErrExists = errors.New("release already exists")

// Staging is a release being written: a hidden temporary directory beside
// the final one, renamed into place by Commit.
type Staging struct {
	Dir   string // write artifact files here
	final string
}

// Stage creates the staging directory for data version v under out.
func Stage(out, v string) (*Staging, error) {
	if err := CheckDataVersion(v); err != nil {
		return nil, err
	}
	final := filepath.Join(out, v)
	if _, err := os.Stat(final); err == nil {
		return nil, fmt.Errorf("%w: %s", ErrExists, final)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("release: create %s: %w", out, err)
	}
	dir, err := os.MkdirTemp(out, "."+v+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("release: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, fmt.Errorf("release: %w", err)
	}
	return &Staging{Dir: dir, final: final}, nil
}

// Commit checksums the files, writes the manifest and renames the directory
// into place. m.Files is filled in here.
func (s *Staging) Commit(m *Manifest) error {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return fmt.Errorf("release: %w", err)
	}
	m.Files = m.Files[:0]
	for _, e := range entries {
		fi, err := fileInfo(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			return err
		}
		m.Files = append(m.Files, fi)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("release: encode manifest: %w", err)
	}
	if err := writeSynced(filepath.Join(s.Dir, ManifestFile), append(b, '\n')); err != nil {
		return err
	}
	if _, err := os.Stat(s.final); err == nil {
		return fmt.Errorf("%w: %s", ErrExists, s.final)
	}
	if err := os.Rename(s.Dir, s.final); err != nil {
		return fmt.Errorf("release: move into place: %w", err)
	}
	return syncDir(filepath.Dir(s.final))
}

// Abort removes the staging directory.
func (s *Staging) Abort() { os.RemoveAll(s.Dir) }

// Final is the directory the release will have once committed.
func (s *Staging) Final() string { return s.final }

func fileInfo(path string) (FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileInfo{}, fmt.Errorf("release: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return FileInfo{}, fmt.Errorf("release: checksum %s: %w", path, err)
	}
	return FileInfo{Name: filepath.Base(path), Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// FileSHA256 returns the hex SHA-256 and size of a file.
func FileSHA256(path string) (string, int64, error) {
	fi, err := fileInfo(path)
	return fi.SHA256, fi.Bytes, err
}

func writeSynced(path string, b []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("release: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("release: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("release: sync %s: %w", path, err)
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("release: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("release: sync %s: %w", dir, err)
	}
	return nil
}
