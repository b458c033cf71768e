package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mapsco/maps/pkg/ledger"
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
// Layout (format 2). The file is preallocated with zeros (written, not
// fallocated, so that writing a record changes no file metadata and
// fdatasync flushes data only). Its first page holds a header, written
// when the journal is made and again only when its size changes:
//
//	[8]byte "mapdjnl\n"
//	u32 format (2)
//	u32 CRC-32C (Castagnoli) of the rest of the header, through the name
//	u64 the journal's size in bytes, as preallocated
//	[16]byte the ledger's id (bbolt meta "ledger_id")
//	u16 the length of the ledger file's base name, then the name (for people)
//
// From offset journalStart (4 KiB) it holds a sequence of records:
//
//	u32 payload length (0 ends the sequence)
//	u32 CRC-32C of the next 8 bytes and the payload
//	u64 epoch
//	payload: a journalRecord as JSON
//
// All integers are little-endian. The epoch is the journal's generation,
// kept in bbolt (meta "journal_epoch"): when the journal is full, or the
// ledger is opened or closed, every record is first applied to bbolt, then
// the epoch is raised in a synced bbolt transaction and writing starts over
// at journalStart. A start-over writes the charges of requests still in
// flight again at the start of the new epoch (boltStore.startOver).
//
// Replay reads records from journalStart while their CRC holds and their
// epoch is the current one. Where that sequence stops, the journal either
// ends (zeros, a record of an earlier epoch, or the record a crash tore,
// never acknowledged: syncs are acknowledged in order, each covering
// everything written before it) or is damaged. A write fills the file in
// order, so a crash never leaves an intact record of the current epoch
// after a torn one: finding one means the journal was damaged, and
// charges may sit in the damaged bytes and after them. Open then refuses
// the ledger (JournalDamageError), and so it does a journal shorter than
// its header says, a journal whose header names another ledger, and a
// missing or empty bbolt file beside a journal; Recover applies what is
// intact and reports what is lost (journal_read.go).
//
// Format 1 had no header and its records started at offset 0. Open replays
// such a journal once, then writes the header and records format 2 in
// bbolt (meta "journal_format").
const (
	journalSuffix      = "-journal"
	journalRecordHead  = 16
	journalStart       = 4 << 10
	journalMagic       = "mapdjnl\n"
	journalFormat      = 2
	defaultJournalSize = 8 << 20
	minJournalSize     = 64 << 10
	metaJournalEpoch   = "journal_epoch"
	// metaJournalOpen is "1" while a process has the ledger open: a missing
	// journal is then an error (it may have held charges not yet in bbolt).
	metaJournalOpen   = "journal_open"
	metaJournalFormat = "journal_format"
	// metaJournalApplied counts the charges applied to bbolt in the
	// current epoch (journal_mark.go).
	metaJournalApplied = "journal_applied"
	metaLedgerID       = "ledger_id"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

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
	// records and charges count what the current epoch holds, for the
	// acknowledgement mark (journal_mark.go); packCharges, the charges
	// among what pack encoded.
	records, charges int64
	packCharges      int64
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

// openJournalFile opens the journal at path, creating an empty file if it
// is missing unless mustExist. It reads nothing and extends nothing: replay
// first looks at the file as it is (prepare then extends it).
func openJournalFile(path string, mustExist bool) (*journal, error) {
	flags := os.O_RDWR
	if !mustExist {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, corrupt("journal %s is missing and the ledger was not closed cleanly: charges may be lost; %s",
			path, restoreHint)
	}
	if err != nil {
		return nil, fmt.Errorf("opening journal: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening journal: %w", err)
	}
	return &journal{f: f, path: path, size: st.Size(), off: journalStart, window: -1}, nil
}

// prepare makes the journal ready to write: preallocated to at least size
// bytes, and its header naming the ledger and that size. It writes the
// header only if the file's differs, and syncs what it wrote.
func (j *journal) prepare(size int64, h journalHeader) error {
	if err := j.preallocate(size); err != nil {
		return fmt.Errorf("preallocating journal %s: %w", j.path, err)
	}
	h.Size = j.size
	if old, err := j.readHeader(); err == nil && old == h {
		return nil
	}
	if _, err := j.f.WriteAt(h.encode(), 0); err != nil {
		return fmt.Errorf("writing the header of journal %s: %w", j.path, err)
	}
	if err := datasync(j.f); err != nil {
		return fmt.Errorf("writing the header of journal %s: %w", j.path, err)
	}
	willNeed(j.f, journalStart, readAheadWindow)
	return nil
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

// journalHeader is what the journal's first page says about it.
type journalHeader struct {
	LedgerID [16]byte // the ledger's id, also in bbolt (meta "ledger_id")
	Size     int64    // the journal's size as preallocated
	Name     string   // the ledger file's base name, for people
}

// errNoJournalHeader means the file does not start with the header's magic:
// a format 1 journal, or damage.
var errNoJournalHeader = errors.New("no journal header")

func (h journalHeader) encode() []byte {
	name := h.Name[:min(len(h.Name), 255)]
	b := make([]byte, 0, 42+len(name))
	b = append(b, journalMagic...)
	b = binary.LittleEndian.AppendUint32(b, journalFormat)
	b = binary.LittleEndian.AppendUint32(b, 0) // the CRC, below
	b = binary.LittleEndian.AppendUint64(b, uint64(h.Size))
	b = append(b, h.LedgerID[:]...)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(name)))
	b = append(b, name...)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[16:], castagnoli))
	return b
}

// decodeJournalHeader reads a header from the start of b (at least 42
// bytes, plus the name).
func decodeJournalHeader(b []byte) (journalHeader, error) {
	le := binary.LittleEndian
	switch {
	case len(b) < 42 || string(b[:8]) != journalMagic:
		return journalHeader{}, errNoJournalHeader
	case le.Uint32(b[8:]) != journalFormat:
		return journalHeader{}, fmt.Errorf("journal format %d, want %d", le.Uint32(b[8:]), journalFormat)
	}
	n := int(le.Uint16(b[40:]))
	if len(b) < 42+n || crc32.Checksum(b[16:42+n], castagnoli) != le.Uint32(b[12:]) {
		return journalHeader{}, errors.New("the journal header fails its checksum")
	}
	h := journalHeader{Size: int64(le.Uint64(b[16:])), Name: string(b[42 : 42+n])}
	copy(h.LedgerID[:], b[24:40])
	return h, nil
}

// readHeader reads the journal's header.
func (j *journal) readHeader() (journalHeader, error) {
	b := make([]byte, 42+255)
	n, err := j.f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return journalHeader{}, err
	}
	return decodeJournalHeader(b[:n])
}

// readJournalHeaderFile reads the header of the journal at path.
func readJournalHeaderFile(path string) (journalHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return journalHeader{}, err
	}
	defer f.Close()
	return (&journal{f: f, path: path}).readHeader()
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
	binary.LittleEndian.PutUint32(buf[start:], uint32(len(buf)-start-journalRecordHead))
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
	j.packCharges = 0
	for i := range count {
		r := record(i)
		next, err := appendRecord(buf, j.epoch, *r)
		if err != nil {
			return nil, err
		}
		if int64(len(next)) > free {
			break
		}
		buf = next
		ends = append(ends, len(buf))
		if !r.Cancel {
			j.packCharges++
		}
	}
	j.buf, j.ends = buf, ends
	switch {
	case len(ends) > 0 || count == 0:
		return ends, nil
	case j.off == journalStart:
		return nil, fmt.Errorf("%w: the charge of request %s does not fit in journal %s", ledger.ErrUnavailable, record(0).RequestID, j.path)
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
	j.records += int64(len(j.ends))
	j.charges += j.packCharges
	if err := j.writeMark(); err != nil {
		return err
	}
	j.readAhead()
	return nil
}

// startOver raises the journal's epoch with raise (a synced bbolt
// transaction, which retires every record written so far) and makes the
// next append go to the start of the records. The caller must have applied
// every committed record to bbolt first (see boltStore.startOver).
func (j *journal) startOver(raise func(epoch uint64) error) error {
	if err := raise(j.epoch + 1); err != nil {
		return fmt.Errorf("starting journal %s over: %w", j.path, err)
	}
	j.epoch++
	j.off = journalStart
	j.records, j.charges = 0, 0
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
