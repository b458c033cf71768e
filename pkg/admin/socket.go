package admin

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
)

// SocketPath is where mapd serve listens for a ledger file, and where the
// admin commands look for it: FILE-admin.sock, beside FILE-journal.
func SocketPath(ledgerFile string) string { return ledgerFile + "-admin.sock" }

// maxSocketPath is the longest path a unix socket address holds on Linux
// (sun_path is 108 bytes with its terminating NUL).
const maxSocketPath = 107

// Listen creates the socket at path with mode 0600, replacing a stale one
// (a socket nobody answers on; the caller holds the ledger's lock, so no
// other mapd serves it). The socket is bound inside a fresh directory of
// mode 0700 and moved into place only once its own mode is 0600, so that
// nobody else can connect in between. Closing the listener removes the
// socket.
func Listen(path string) (net.Listener, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().Type() != fs.ModeSocket {
		return nil, fmt.Errorf("admin socket %s: the path exists and is not a socket", path)
	}
	private, err := os.MkdirTemp(filepath.Dir(path), ".admin-sock-")
	if err != nil {
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	defer os.RemoveAll(private)
	bound := filepath.Join(private, "s")
	var ln *net.UnixListener
	err = withShortPath(bound, func(addr string) error {
		var err error
		ln, err = net.ListenUnix("unix", &net.UnixAddr{Name: addr, Net: "unix"})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(false) // it moves: listener.Close removes it where it ends up
	if err := os.Chmod(bound, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	if err := os.Rename(bound, path); err != nil {
		ln.Close()
		return nil, fmt.Errorf("admin socket %s: %w", path, err)
	}
	return &listener{UnixListener: ln, path: path}, nil
}

// listener removes its socket file when closed.
type listener struct {
	*net.UnixListener
	path string
}

func (l *listener) Close() error {
	err := l.UnixListener.Close()
	if rerr := os.Remove(l.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}

// dial connects to the socket at path. It returns an error wrapping
// ErrNoServer when nothing answers there: no socket, or a stale one.
func dial(path string) (net.Conn, error) {
	var conn net.Conn
	err := withShortPath(path, func(addr string) error {
		var err error
		conn, err = net.DialTimeout("unix", addr, dialTimeout)
		return err
	})
	switch {
	case err == nil:
		return conn, nil
	case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ECONNREFUSED):
		return nil, fmt.Errorf("%w at %s", ErrNoServer, path)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return nil, fmt.Errorf("admin socket %s: permission denied: it is mode 0600, for the user mapd serve runs as; run the command as that user", path)
	}
	return nil, fmt.Errorf("admin socket %s: %w", path, err)
}

// withShortPath calls fn with an address for path that fits a socket
// address: path itself, or, when it is too long, the same file reached
// through /proc/self/fd and a descriptor of its directory (Linux resolves
// it at bind and connect time).
func withShortPath(path string, fn func(addr string) error) error {
	if len(path) <= maxSocketPath {
		return fn(path)
	}
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer dir.Close()
	short := fmt.Sprintf("/proc/self/fd/%d/%s", dir.Fd(), filepath.Base(path))
	if len(short) > maxSocketPath {
		return fmt.Errorf("socket name %q is longer than %d bytes", filepath.Base(path), maxSocketPath)
	}
	return fn(short)
}
