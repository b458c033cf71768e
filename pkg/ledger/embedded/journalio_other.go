//go:build !linux

package embedded

import "os"

// datasync makes f's written data durable (a full fsync where fdatasync is
// not available).
func datasync(f *os.File) error { return f.Sync() }

// willNeed would ask the kernel to read f's bytes [off, off+n) ahead; there
// is no portable way, and it is only advice.
func willNeed(f *os.File, off, n int64) {}
