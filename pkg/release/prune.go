package release

import (
	"fmt"
	"os"
	"path/filepath"
)

// PruneCandidates returns the releases in dir that Prune would delete: all
// but the keep newest by build time, and never the current one (which counts
// towards keep when it is among the newest).
// Directories without a readable manifest are never candidates: they may be
// something other than a release.
func PruneCandidates(dir string, keep int) ([]Info, error) {
	if keep < 0 {
		return nil, fmt.Errorf("release: prune %s: keep %d releases: want 0 or more", dir, keep)
	}
	all, err := List(dir)
	if err != nil {
		return nil, err
	}
	var out []Info
	kept := 0
	for _, info := range all { // newest first
		switch {
		case info.Err != nil:
		case info.Current || kept < keep:
			kept++
		default:
			out = append(out, info)
		}
	}
	return out, nil
}

// Prune deletes the releases PruneCandidates names and returns their names.
// A running mapd still serving a deleted release (one whose swap it refused)
// keeps its mapping: the files go away when it unmaps them.
func Prune(dir string, keep int) ([]string, error) {
	cands, err := PruneCandidates(dir, keep)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, c := range cands {
		if err := os.RemoveAll(filepath.Join(dir, c.Name)); err != nil {
			return removed, fmt.Errorf("release: prune %s: %w", c.Name, err)
		}
		removed = append(removed, c.Name)
	}
	return removed, nil
}
