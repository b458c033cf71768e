package release

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Info describes one release directory in a directory of releases.
type Info struct {
	Name          string    // directory name, normally the data_version
	DataVersion   string    // from the manifest
	BuildTime     time.Time // from the manifest
	FormatVersion int       // from the manifest
	Bytes         int64     // sum of the files the manifest lists
	Current       bool      // the current pointer names it
	Err           error     // the manifest could not be read; the other fields are zero
}

// List returns the releases in dir, newest build first. Hidden entries
// (mapc's staging directories), plain files and the current pointer are
// skipped; symlinks to directories count as releases; a directory without a
// readable manifest is listed with Err set.
func List(dir string) ([]Info, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("release: list %s: %w", dir, err)
	}
	current, err := CurrentName(dir)
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.Name() == CurrentFile || !isDir(filepath.Join(dir, e.Name())) {
			continue
		}
		out = append(out, describe(dir, e.Name(), current))
	}
	slices.SortFunc(out, func(a, b Info) int {
		if c := b.BuildTime.Compare(a.BuildTime); c != 0 {
			return c
		}
		return cmp.Compare(b.Name, a.Name)
	})
	return out, nil
}

func describe(dir, name, current string) Info {
	info := Info{Name: name, Current: name == current}
	m, err := ReadManifest(filepath.Join(dir, name))
	if err != nil {
		info.Err = err
		return info
	}
	info.DataVersion, info.BuildTime, info.FormatVersion = m.DataVersion, m.BuildTime, m.FormatVersion
	for _, f := range m.Files {
		info.Bytes += f.Bytes
	}
	return info
}

// isDir reports whether path is a directory or a symlink to one.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
