package embedded

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/mapsco/maps/pkg/ledger"
)

// LockedError is ErrLocked with what an operator needs to get past it: the
// process holding the embedded ledger file, when the system says (Linux's
// /proc/locks), and the ways out.
type LockedError struct {
	Path    string
	PID     int    // 0 when unknown
	Command string // the holder's command line, "" when unknown
}

func (e *LockedError) Error() string {
	who := "another process"
	if e.PID != 0 {
		who = fmt.Sprintf("process %d", e.PID)
		if e.Command != "" {
			who += " (" + e.Command + ")"
		}
	}
	return fmt.Sprintf("ledger %s is locked by %s: one process at a time holds an embedded ledger. "+
		"Stop it first, or give this one another --ledger; replicas that share accounts share a "+
		"postgres:// ledger instead (docs/metering.md); admin commands reach a serving mapd through its "+
		"admin socket", e.Path, who)
}

// Unwrap makes errors.Is(err, ErrLocked) hold.
func (e *LockedError) Unwrap() error { return ledger.ErrLocked }

// lockedBy builds the LockedError of path, finding the lock's holder in
// /proc/locks by the file's inode (best effort: elsewhere, unknown).
func lockedBy(path string) *LockedError {
	e := &LockedError{Path: path}
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return e
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return e
	}
	defer f.Close()
	inode := ":" + strconv.FormatUint(st.Ino, 10)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 3862 fe:00:778394 0 EOF"
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] == "->" || !strings.HasSuffix(fields[5], inode) {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
			e.PID = pid
			if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
				e.Command = strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))
			}
			break
		}
	}
	return e
}
