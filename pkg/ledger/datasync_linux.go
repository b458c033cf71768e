package ledger

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// datasync makes f's written data durable. fdatasync skips the inode's
// timestamps, so on the preallocated journal it flushes the data only.
func datasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}

// startWriteback starts writing f's dirty pages in [off, off+n) to the
// disk without waiting for them, so that a later datasync has less to do.
// It is only a head start: failures are left to datasync to report.
func startWriteback(f *os.File, off, n int64) {
	unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
