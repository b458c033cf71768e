package release

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mapsco/maps/pkg/artifact"
)

// Verify checks a release completely: the manifest names this build's
// format version, every file it lists exists with its size and SHA-256, and
// every artifact's header and section checksums hold.
func Verify(dir string) error {
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	if err := CheckFormat(dir, m); err != nil {
		return err
	}
	if len(m.Files) == 0 {
		return fmt.Errorf("release %s: %w: manifest lists no files", dir, artifact.ErrCorrupt)
	}
	for _, want := range m.Files {
		path := filepath.Join(dir, want.Name)
		got, err := fileInfo(path)
		if err != nil {
			return err
		}
		if got.Bytes != want.Bytes || got.SHA256 != want.SHA256 {
			return fmt.Errorf("release %s: %w: %s has %d bytes sha256 %s, manifest says %d bytes %s",
				dir, artifact.ErrCorrupt, want.Name, got.Bytes, got.SHA256, want.Bytes, want.SHA256)
		}
		if filepath.Ext(want.Name) != ".map" {
			continue
		}
		if err := verifyArtifact(path); err != nil {
			return fmt.Errorf("release %s: %w", dir, err)
		}
	}
	return nil
}

func verifyArtifact(path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	f, err := artifact.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Verify()
}

// CheckFormat refuses a release written in a format this build cannot read.
func CheckFormat(dir string, m *Manifest) error {
	if m.FormatVersion != artifact.FormatVersion {
		return fmt.Errorf("release %s: %w: manifest says %d, this build reads %d", dir, artifact.ErrFormatVersion, m.FormatVersion, artifact.FormatVersion)
	}
	return nil
}
