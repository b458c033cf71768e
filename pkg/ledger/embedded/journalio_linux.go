package embedded

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

// willNeed asks the kernel to read f's bytes [off, off+n) into the page
// cache in the background. It is advice: an error changes nothing but
// speed, so it is not reported.
func willNeed(f *os.File, off, n int64) {
	_ = unix.Fadvise(int(f.Fd()), off, n, unix.FADV_WILLNEED)
}
