package ledger

import (
	"os"
	"syscall"
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
