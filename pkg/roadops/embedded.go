package roadops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// lockTimeout bounds how long a call waits for another process's lock on
// the embedded file: writers hold it for one fsync, so a wait this long
// means that process is stuck (stopped or on a dead disk).
const lockTimeout = 10 * time.Second

// embedded is the file store. The file is shared with other processes;
// state caches what was replayed of it, up to offset.
type embedded struct {
	path string
	mu   sync.Mutex // serialises this process's goroutines; flock the processes
	f    *os.File
	st   *memState
	// offset is the end of the last intact record replayed.
	offset int64
}

func openEmbedded(path string) (*embedded, error) {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%w: opening %s: %w", ErrUnavailable, path, err)
	}
	if errors.Is(statErr, os.ErrNotExist) {
		// The file's name must survive a crash too.
		if err := syncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, err
		}
	}
	s := &embedded{path: path, f: f, st: newMemState()}
	ctx, cancel := context.WithTimeout(context.Background(), lockTimeout)
	defer cancel()
	if err := s.read(ctx, func(*memState) error { return nil }); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("%w: opening directory %s: %w", ErrUnavailable, dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("%w: syncing directory %s: %w", ErrUnavailable, dir, err)
	}
	return nil
}

// lock takes the file's flock (shared or exclusive), waiting for other
// processes at most until ctx ends or lockTimeout.
func (s *embedded) lock(ctx context.Context, how int) (unlock func(), err error) {
	if s.f == nil {
		return nil, fmt.Errorf("%w: %s: the store is closed", ErrUnavailable, s.path)
	}
	deadline := time.Now().Add(lockTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 20*time.Millisecond) {
		err := unix.Flock(int(s.f.Fd()), how|unix.LOCK_NB)
		if err == nil {
			return func() { _ = unix.Flock(int(s.f.Fd()), unix.LOCK_UN) }, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			return nil, fmt.Errorf("%w: locking %s: %w", ErrUnavailable, s.path, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: %s stayed locked by another process for %s", ErrUnavailable, s.path, lockTimeout)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the lock on %s: %w", s.path, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// refresh replays the records written since the last refresh. The caller
// holds s.mu and a flock. It returns the file's size: bytes past s.offset
// are a torn last record.
func (s *embedded) refresh() (size int64, err error) {
	fi, err := s.f.Stat()
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrUnavailable, s.path, err)
	}
	size = fi.Size()
	if size < s.offset {
		return 0, fmt.Errorf("%w: %s shrank from %d to %d bytes (replaced or truncated by hand?)", ErrCorrupt, s.path, s.offset, size)
	}
	if size == s.offset {
		return size, nil
	}
	data := make([]byte, size-s.offset)
	if _, err := s.f.ReadAt(data, s.offset); err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("%w: reading %s: %w", ErrUnavailable, s.path, err)
	}
	records, used, err := scanJournal(data, s.offset)
	for _, r := range records {
		// Offsets within the chunk are not tracked per record: apply's
		// errors name the chunk's start, enough to find it.
		if err == nil {
			err = s.st.apply(r, s.offset)
		}
	}
	if err != nil {
		// Damage is for good: start over at the next call, which finds
		// it again, rather than keep half a replay.
		s.st, s.offset = newMemState(), 0
		return 0, fmt.Errorf("%s: %w", s.path, err)
	}
	s.offset += int64(used)
	return size, nil
}

// read runs fn on the state, up to date, under a shared lock.
func (s *embedded) read(ctx context.Context, fn func(*memState) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lock(ctx, unix.LOCK_SH)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.refresh(); err != nil {
		return err
	}
	return fn(s.st)
}

// write runs build on the up-to-date state under the exclusive lock,
// appends the record it returns (none if nil), fsyncs it and replays it.
func (s *embedded) write(ctx context.Context, build func(st *memState) (*journalRecord, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lock(ctx, unix.LOCK_EX)
	if err != nil {
		return err
	}
	defer unlock()
	size, err := s.refresh()
	if err != nil {
		return err
	}
	rec, err := build(s.st)
	if err != nil || rec == nil {
		return err
	}
	var lines []byte
	if !s.st.header {
		lines, _ = encodeRecord(journalRecord{Header: &journalHeader{Format: journalFormat, Version: journalVersion}})
	}
	line, err := encodeRecord(*rec)
	if err != nil {
		return err
	}
	lines = append(lines, line...)
	if err := s.append(size, lines); err != nil {
		return err
	}
	_, err = s.refresh()
	return err
}

// append cuts off a torn last record (bytes past s.offset, left by a
// writer that died), writes lines in one write and fsyncs.
func (s *embedded) append(size int64, lines []byte) error {
	if size > s.offset {
		if err := s.f.Truncate(s.offset); err != nil {
			return fmt.Errorf("%w: cutting the torn last record off %s: %w", ErrUnavailable, s.path, err)
		}
	}
	if _, err := s.f.WriteAt(lines, s.offset); err != nil {
		// Leave no half record for the next reader to puzzle over.
		_ = s.f.Truncate(s.offset)
		return fmt.Errorf("%w: writing %s: %w", ErrUnavailable, s.path, err)
	}
	if err := s.f.Sync(); err != nil {
		_ = s.f.Truncate(s.offset)
		return fmt.Errorf("%w: syncing %s: %w", ErrUnavailable, s.path, err)
	}
	return nil
}

func (s *embedded) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}
