package roadops

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// RecoverReport says what RecoverEmbedded kept and dropped.
type RecoverReport struct {
	Path    string         `json:"path"`
	Kept    int            `json:"records_kept"`
	Damaged []DamagedRange `json:"damaged"`
	// Backup is the damaged file, kept aside, byte for byte.
	Backup string `json:"backup"`
}

// DamagedRange is a run of bytes of the file that held no intact record.
type DamagedRange struct {
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
}

// RecoverEmbedded rewrites the operations file of an embedded ledger with
// every intact record it holds, dropping damaged ones (an operation whose
// add was damaged comes back from its later changes, which carry it
// whole; changes lost are lost), and keeps the damaged file aside as
// FILE.damaged-UNIXTIME. Run it with no mapd serving the ledger: a serving
// process would go on reading the old file.
func RecoverEmbedded(ctx context.Context, ledgerFile string) (RecoverReport, error) {
	path := EmbeddedPath(ledgerFile)
	s, err := openRaw(path)
	if err != nil {
		return RecoverReport{}, err
	}
	defer s.Close()
	unlock, err := s.lock(ctx, unix.LOCK_EX)
	if err != nil {
		return RecoverReport{}, err
	}
	defer unlock()
	raw, err := os.ReadFile(path)
	if err != nil {
		return RecoverReport{}, fmt.Errorf("%w: reading %s: %w", ErrUnavailable, path, err)
	}
	kept, rep := salvage(raw)
	rep.Path = path
	rep.Backup = fmt.Sprintf("%s.damaged-%d", path, time.Now().Unix())
	tmp := path + ".recovering"
	if err := writeSynced(tmp, kept); err != nil {
		return RecoverReport{}, err
	}
	if err := os.Rename(path, rep.Backup); err != nil {
		return RecoverReport{}, fmt.Errorf("%w: keeping %s aside: %w", ErrUnavailable, path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return RecoverReport{}, fmt.Errorf("%w: putting the recovered file in place: %w", ErrUnavailable, err)
	}
	return rep, syncDir(filepath.Dir(path))
}

// openRaw opens the file without replaying it (it may be damaged).
func openRaw(path string) (*embedded, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: opening %s: %w", ErrUnavailable, path, err)
	}
	return &embedded{path: path, f: f, st: newMemState()}, nil
}

// salvage returns the intact records of raw that replay in order, as
// lines, with a header first, and the damaged ranges.
func salvage(raw []byte) ([]byte, RecoverReport) {
	var rep RecoverReport
	st := newMemState()
	var out []byte
	header, _ := encodeRecord(journalRecord{Header: &journalHeader{Format: journalFormat, Version: journalVersion}})
	damage := func(off, n int64) {
		if last := len(rep.Damaged) - 1; last >= 0 && rep.Damaged[last].Offset+rep.Damaged[last].Bytes == off {
			rep.Damaged[last].Bytes += n
			return
		}
		rep.Damaged = append(rep.Damaged, DamagedRange{off, n})
	}
	for off := 0; off < len(raw); {
		end := bytes.IndexByte(raw[off:], '\n')
		if end < 0 {
			end = len(raw) - off - 1 // a torn last line, without its LF
		}
		line := raw[off : off+end+1]
		r, err := decodeLine(bytes.TrimSuffix(line, []byte("\n")))
		if err == nil && !st.header && r.Header == nil {
			_ = st.apply(journalRecord{Header: &journalHeader{Format: journalFormat, Version: journalVersion}}, 0)
			out = append(out, header...)
		}
		if err == nil {
			err = st.apply(r, int64(off))
		}
		if err != nil {
			damage(int64(off), int64(len(line)))
		} else {
			out = append(out, bytes.TrimSuffix(line, []byte("\n"))...)
			out = append(out, '\n')
			rep.Kept++
		}
		off += len(line)
	}
	if !st.header {
		out = header
	}
	if rep.Damaged == nil {
		rep.Damaged = []DamagedRange{}
	}
	return out, rep
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("%w: writing %s: %w", ErrUnavailable, path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("%w: syncing %s: %w", ErrUnavailable, path, err)
	}
	return f.Close()
}
