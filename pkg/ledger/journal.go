package ledger

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// The charge journal is the embedded store's write-ahead log for Commit:
// the file FILE-journal beside the bbolt file FILE. A charge is durable once
// its record is in the journal (one small write per group of charges, and
// one fdatasync per group of commits); committed records reach bbolt later,
// in batches, off the request path (see applier), and records are replayed
// into bbolt when the ledger is opened.
//
// Why a separate file: a bbolt commit writes whole 4 KiB pages (a usage leaf,
// the account leaf, branch pages) and syncs twice (data pages, then the meta
// page), and one transaction holds the writer lock through both syncs, so
// group commits cannot overlap. A journal record is a couple of hundred
// bytes appended in place, one fdatasync makes it durable, and several
// fdatasyncs may be in flight at once.
//
// Layout. The file is preallocated with zeros (written, not fallocated, so
// that writing a record changes no file metadata and fdatasync flushes data
// only). It holds a sequence of records from offset 0:
//
//	u32 payload length (0 ends the sequence)
//	u32 CRC-32C (Castagnoli) of the next 8 bytes and the payload
//	u64 epoch
//	payload: a journalRecord as JSON
//
// All integers are little-endian. The epoch is the journal's generation,
// kept in bbolt (meta "journal_epoch"): when the journal is full, or the
// ledger is opened or closed, every record is first applied to bbolt, then
// the epoch is raised in a synced bbolt transaction and writing starts over
// at offset 0. Replay therefore reads records from offset 0 while their CRC
// holds and their epoch is the current one; the first record that fails
// either test (zeros, a torn write, a record of an earlier epoch) ends the
// journal. Records past a torn one were never acknowledged: syncs are
// acknowledged in order, each covering everything written before it. A
// start-over writes the charges of requests still in flight again at the
// start of the new epoch (boltStore.startOver).
const (
	journalSuffix      = "-journal"
	journalHeader      = 16
	defaultJournalSize = 8 << 20
	minJournalSize     = 64 << 10
	metaJournalEpoch   = "journal_epoch"
	// metaJournalOpen is "1" while a process has the ledger open: a missing
	// journal is then an error (it may have held charges not yet in bbolt).
	metaJournalOpen = "journal_open"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// journalRecord is one charge: its usage record and the UTC day and month
// its credits count in (those of its reservation).
type journalRecord struct {
	Usage
	Day   int `json:"day"`
	Month int `json:"month"`
	// Cancel voids the earlier charge of the same request: the embedded
	// store journals a charge when it is reserved and, if the request
	// fails, cancels it before the failure is answered.
	Cancel bool `json:"cancel,omitempty"`
}

// journal is the open journal file. Once the store is open, everything
// but f, path and size belongs to the committer's writer (the caller that
// is writing the queue): it packs records into buf, appends them at off and
// starts the journal over, and nobody else touches them.
type journal struct {
	f      *os.File
	path   string
	size   int64
	epoch  uint64
	off    int64
	window int64 // the read-ahead window off was in at the last readAhead
	// The writer's scratch: the packed records, and where each ends in buf.
	buf  []byte
	ends []int
}

// errJournalFull means the next record does not fit in what is left of the
// journal: it must start over.
var errJournalFull = errors.New("journal is full")

// readAheadWindow is how far ahead of the writer the journal's pages are
// read in (see readAhead): 64 KiB, about 260 charges.
const readAheadWindow = 64 << 10

// openJournal opens path, creating it if missing unless mustExist, and
// makes sure it is preallocated to at least size bytes.
func openJournal(path string, size int64, mustExist bool) (*journal, error) {
	flags := os.O_RDWR
	if !mustExist {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("journal %s is missing and the ledger was not closed cleanly: charges may be lost (restore both files from the same backup)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening journal: %w", err)
	}
	j := &journal{f: f, path: path, window: -1}
	if err := j.preallocate(size); err != nil {
		f.Close()
		return nil, fmt.Errorf("preallocating journal %s: %w", path, err)
	}
	willNeed(f, 0, readAheadWindow)
	return j, nil
}

// preallocate extends the file with written zeros to size bytes (it never
// shrinks it) and makes the extension and the file's name durable.
func (j *journal) preallocate(size int64) error {
	st, err := j.f.Stat()
	if err != nil {
		return err
	}
	j.size = max(st.Size(), size)
	if st.Size() >= size {
		return nil
	}
	zeros := make([]byte, 64<<10)
	for off := st.Size(); off < size; off += int64(len(zeros)) {
		if _, err := j.f.WriteAt(zeros[:min(int64(len(zeros)), size-off)], off); err != nil {
			return err
		}
	}
	if err := j.f.Sync(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(j.path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// scan returns the records of the given epoch, from offset 0 up to the
// first record that is not one. It reads only as far as that record, so
// opening a ledger whose journal was started over costs one small read.
func (j *journal) scan(epoch uint64) ([]journalRecord, error) {
	r := bufio.NewReaderSize(io.NewSectionReader(j.f, 0, j.size), 64<<10)
	var recs []journalRecord
	for off := int64(0); ; {
		payload, ok, err := readRecord(r, epoch, j.size-off)
		if err != nil {
			return nil, fmt.Errorf("reading journal %s at offset %d: %w", j.path, off, err)
		}
		if !ok {
			return recs, nil
		}
		var rec journalRecord
		if err := json.Unmarshal(payload, &rec); err != nil {
			return nil, fmt.Errorf("journal %s: decoding the record at offset %d: %w", j.path, off, err)
		}
		recs = append(recs, rec)
		off += journalHeader + int64(len(payload))
	}
}

// readRecord reads the next record if it is whole, intact and of the
// given epoch; left is how many bytes the journal has from here on.
func readRecord(r *bufio.Reader, epoch uint64, left int64) (payload []byte, ok bool, err error) {
	head, err := r.Peek(journalHeader)
	if errors.Is(err, io.EOF) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	n := int64(binary.LittleEndian.Uint32(head))
	if n == 0 || n > left-journalHeader || binary.LittleEndian.Uint64(head[8:]) != epoch {
		return nil, false, nil
	}
	rec := make([]byte, journalHeader+n)
	if _, err := io.ReadFull(r, rec); err != nil {
		return nil, false, err
	}
	if crc32.Checksum(rec[8:], castagnoli) != binary.LittleEndian.Uint32(rec[4:]) {
		return nil, false, nil
	}
	return rec[journalHeader:], true, nil
}

// appendRecord appends r's encoding in the given epoch to buf.
func appendRecord(buf []byte, epoch uint64, r journalRecord) ([]byte, error) {
	start := len(buf)
	buf = binary.LittleEndian.AppendUint32(buf, 0) // the payload's length, below
	buf = binary.LittleEndian.AppendUint32(buf, 0) // the CRC, below
	buf = binary.LittleEndian.AppendUint64(buf, epoch)
	buf, err := appendJournalJSON(buf, r)
	if err != nil {
		return buf[:start], fmt.Errorf("encoding the journal record of request %s: %w", r.RequestID, err)
	}
	binary.LittleEndian.PutUint32(buf[start:], uint32(len(buf)-start-journalHeader))
	binary.LittleEndian.PutUint32(buf[start+4:], crc32.Checksum(buf[start+8:], castagnoli))
	return buf, nil
}

// pack encodes into j.buf the longest prefix of count records that fits in
// the journal's free space, and returns where each ends in j.buf. It
// returns errJournalFull if not even the first one fits and the journal
// can start over, and an ErrUnavailable error if it would not fit in an
// empty journal either.
func (j *journal) pack(count int, record func(i int) *journalRecord) (ends []int, err error) {
	free := j.size - j.off
	buf, ends := j.buf[:0], j.ends[:0]
	for i := range count {
		next, err := appendRecord(buf, j.epoch, *record(i))
		if err != nil {
			return nil, err
		}
		if int64(len(next)) > free {
			break
		}
		buf = next
		ends = append(ends, len(buf))
	}
	j.buf, j.ends = buf, ends
	switch {
	case len(ends) > 0 || count == 0:
		return ends, nil
	case j.off == 0:
		return nil, fmt.Errorf("%w: the charge of request %s does not fit in journal %s", ErrUnavailable, record(0).RequestID, j.path)
	default:
		return nil, errJournalFull
	}
}

// appendPacked writes what pack encoded at the journal's end.
func (j *journal) appendPacked() error {
	if _, err := j.f.WriteAt(j.buf, j.off); err != nil {
		return err
	}
	j.off += int64(len(j.buf))
	j.readAhead()
	return nil
}

// startOver raises the journal's epoch in a synced bbolt transaction, which
// retires every record written so far, and makes the next append go to
// offset 0. The caller must have applied every committed record to bbolt
// first (see boltStore.startOver).
func (j *journal) startOver(db *bolt.DB) error {
	err := db.Update(func(tx *bolt.Tx) error { return writeJournalMeta(tx, j.epoch+1, true) })
	if err != nil {
		return fmt.Errorf("%w: starting journal %s over: %v", ErrUnavailable, j.path, err)
	}
	j.epoch++
	j.off = 0
	return nil
}

// readAhead asks the kernel to read in the window after the one the writer
// has just entered (the first one when the writer is in the last), so that
// no write waits for a page to be read. A write of part of a page that is
// not in the page cache first reads the page from the disk, on the
// request's path and with the writer's turn held: measured at 64 clients,
// that cost 4 of the 7 µs of CPU a charge's write took, because a journal
// page is touched once per trip through the file and the kernel reclaims
// such cold pages (fincore showed a third of an idle journal gone within a
// minute, on a machine with 22 GB free). Call it after off moves.
func (j *journal) readAhead() {
	w := j.off / readAheadWindow
	if w == j.window {
		return
	}
	j.window = w
	willNeed(j.f, nextWindow(w, j.size), readAheadWindow)
}

// nextWindow is where the read-ahead window after window w starts in a
// journal of size bytes: the file's start once w is the last.
func nextWindow(w, size int64) int64 {
	next := (w + 1) * readAheadWindow
	if next >= size {
		return 0
	}
	return next
}

func (j *journal) close() error {
	if err := j.f.Close(); err != nil {
		return fmt.Errorf("closing journal %s: %w", j.path, err)
	}
	return nil
}
