//go:build !linux

package ledger

import "os"

// datasync makes f's written data durable (a full fsync where fdatasync is
// not available).
func datasync(f *os.File) error { return f.Sync() }
