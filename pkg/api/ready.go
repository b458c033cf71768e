package api

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/serving"
)

// releaseOnDisk checks that the files of the release being served are still
// where it was opened from, with the sizes its manifest gives. Serving
// does not need them (the mapping keeps deleted files alive), but a restart
// would fail without them (an operator's rm -rf, a prune of the wrong
// directory), so readiness turns false and the load balancer's health
// check, not the next deploy, says so. It stats one file per artifact and
// the manifest: a few microseconds per probe. The answer is public, so it
// names the data version and the file but not the directory.
func releaseOnDisk(rel *serving.Release) error {
	names := make([]string, 0, len(rel.Manifest.Files)+1)
	names = append(names, release.ManifestFile)
	for _, f := range rel.Manifest.Files {
		names = append(names, f.Name)
	}
	for i, name := range names {
		fi, err := os.Stat(filepath.Join(rel.Dir, name))
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			err = pe.Err // without the path
		}
		if err != nil {
			return fmt.Errorf("the files of release %s are gone (%s: %w): it is served from memory, but a restart would fail", rel.Manifest.DataVersion, name, err)
		}
		if i > 0 && fi.Size() != rel.Manifest.Files[i-1].Bytes {
			return fmt.Errorf("release %s changed on disk (%s is %d bytes, its manifest says %d): a restart would refuse it", rel.Manifest.DataVersion, name, fi.Size(), rel.Manifest.Files[i-1].Bytes)
		}
	}
	return nil
}
