package ledgertest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size bytes on a new temporary directory,
// returns the directory, and unmounts it when the test ends (after the
// cleanups registered later, such as closing a store on it). Mounting needs
// root (CAP_SYS_ADMIN); without it the test is skipped, saying so.
func SmallDisk(t testing.TB, size int64) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0755", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		if os.Geteuid() != 0 {
			t.Skipf("ledgertest: mounting a tmpfs needs root: %v: %s", err, out)
		}
		t.Fatalf("ledgertest: mount -t tmpfs on %s: %v: %s", dir, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("ledgertest: umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// Fill writes a file in dir until the filesystem is full and returns its
// path: removing it frees the space again.
func Fill(t testing.TB, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for size := len(buf); size > 0; {
		_, err := f.Write(buf[:size])
		switch {
		case errors.Is(err, syscall.ENOSPC):
			size /= 2 // fill the last pages too
		case err != nil && !errors.Is(err, io.ErrShortWrite):
			t.Fatalf("ledgertest: filling %s: %v", dir, err)
		}
	}
	return path
}
