package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/mapsco/maps/pkg/ledger"
)

// bbolt checks nothing but its two meta pages: a damaged data or freelist
// page makes it panic, and a page beyond the end of a truncated file is a
// SIGBUS when the mapping is read, which kills the process. So the
// embedded store looks at the file before bbolt maps it (checkBoltFile),
// and runs every bbolt call under guard, which turns a panic or a memory
// fault into an ErrCorrupt error: a damaged page costs the caller an error
// (503 for a request, a message for the operator), never the process.

// guard runs fn, turning a panic or a memory fault inside it (bbolt reading
// a damaged or missing page of the mapping) into an error that wraps
// ErrCorrupt and ErrUnavailable.
func guard(path, what string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = corrupt("ledger %s is damaged (%s: bbolt failed: %v); %s", path, what, r, restoreHint)
		}
	}()
	return fn()
}

// fileGuard runs the store's bbolt calls under guard. bbolt's View and
// Update roll their transaction back on the way out, but a write
// transaction's rollback reads the freelist page again, so after a fault
// there it may never release bbolt's writer lock: the first failure of a
// write poisons the file, every later call fails at once with that error,
// and Close leaves the file to the process's exit rather than wait for the
// lock forever.
type fileGuard struct {
	path     string
	poisoned atomic.Pointer[error]
}

// view runs a read transaction under guard.
func (g *fileGuard) view(db *bolt.DB, what string, fn func(*bolt.Tx) error) error {
	if p := g.poisoned.Load(); p != nil {
		return *p
	}
	return guard(g.path, what, func() error { return db.View(fn) })
}

// update runs a write transaction under guard.
func (g *fileGuard) update(db *bolt.DB, what string, fn func(*bolt.Tx) error) error {
	return g.write(what, func() error { return db.Update(fn) })
}

// write runs fn, which writes to bbolt, under guard.
func (g *fileGuard) write(what string, fn func() error) error {
	if p := g.poisoned.Load(); p != nil {
		return *p
	}
	err := guard(g.path, what, fn)
	if errors.Is(err, ledger.ErrCorrupt) {
		g.poisoned.CompareAndSwap(nil, &err)
	}
	return err
}

// closeDB closes bbolt unless a failed write poisoned it.
func (g *fileGuard) closeDB(db *bolt.DB) error {
	if p := g.poisoned.Load(); p != nil {
		return *p
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("closing ledger %s: %w", g.path, err)
	}
	return nil
}

// openBoltDB checks the file and opens it with bbolt, under guard.
func openBoltDB(path string, opts ledger.Options) (*bolt.DB, error) {
	if err := checkBoltFile(path); err != nil {
		return nil, err
	}
	if opts.MustExist {
		if err := checkBoltExists(path); err != nil {
			return nil, err
		}
	}
	var db *bolt.DB
	err := guard(path, "opening it", func() error {
		// The freelist is kept as a map (cheaper per transaction than
		// bbolt's array) and written with every commit. Not writing it
		// (NoFreelistSync) would make bbolt rebuild it at every Open by
		// reading every page: the ledger grows by a usage record per
		// charged request (about 300 bytes), and opening a 376 MB ledger
		// took 9 s with a cold cache, against 0.2 s with the freelist
		// written (docs/benchmarks-history.md, "The ledger's freelist"). Charges reach
		// bbolt in batches (applier), so writing it costs nothing
		// measurable per request.
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout, FreelistType: bolt.FreelistMapType})
		return err
	})
	switch {
	case errors.Is(err, ledger.ErrCorrupt):
		return nil, err
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, lockedBy(path)
	case err != nil:
		return nil, fmt.Errorf("%w: opening ledger %s: %w", ledger.ErrUnavailable, path, err)
	}
	return db, nil
}

// checkBoltFile refuses what bbolt would open wrongly or not survive: an
// empty or missing file beside an existing journal (bbolt would make a new,
// empty ledger, and every key would be refused), an empty file, a file
// whose meta pages are both invalid, and a file shorter than the pages its
// meta page counts (reading them through the mapping is a SIGBUS). A
// missing file without a journal is a new ledger.
func checkBoltFile(path string) error {
	st, err := os.Stat(path)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return fmt.Errorf("%w: opening ledger %s: %w", ledger.ErrUnavailable, path, err)
	}
	if missing || st.Size() == 0 {
		return checkNoOrphanJournal(path, missing)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: opening ledger %s: %w", ledger.ErrUnavailable, path, err)
	}
	defer f.Close()
	m, err := newestMeta(f, st.Size())
	if err != nil {
		return corrupt("ledger %s is damaged or not a ledger: %v; %s", path, err, restoreHint)
	}
	if need := int64(m.pgid) * int64(m.pageSize); st.Size() < need {
		return corrupt("ledger %s is truncated: it is %d bytes, and its pages reach %d; %s",
			path, st.Size(), need, restoreHint)
	}
	if m.root >= m.pgid || (m.freelist >= m.pgid && m.freelist != noFreelist) {
		return corrupt("ledger %s is damaged: its meta page names page %d or %d of %d; %s",
			path, m.root, m.freelist, m.pgid, restoreHint)
	}
	return nil
}

// checkNoOrphanJournal refuses an empty or missing ledger file beside a
// journal, which only a ledger that existed leaves behind; an empty file
// alone is refused too (bbolt would make a new ledger of it).
func checkNoOrphanJournal(path string, missing bool) error {
	state := "empty (0 bytes)"
	if missing {
		state = "missing"
	}
	jpath := path + journalSuffix
	if _, err := os.Stat(jpath); err == nil {
		owner := ""
		if h, err := readJournalHeaderFile(jpath); err == nil {
			owner = fmt.Sprintf(" names ledger %x and", h.LedgerID)
		}
		return corrupt("ledger %s is %s, but its journal %s%s exists, so the ledger existed: opening would start an empty ledger and refuse every key; %s, or move the journal away to start a new ledger",
			path, state, jpath, owner, restoreHint)
	}
	if missing {
		return nil
	}
	return corrupt("ledger %s is empty (0 bytes): it is not a ledger; %s, or delete it to start a new ledger",
		path, restoreHint)
}

// boltMeta is what checkBoltFile reads of a bbolt meta page (format 2 of
// go.etcd.io/bbolt, little-endian on every platform we build for): after
// the 16-byte page header, magic u32, version u32, page size u32, flags
// u32, root bucket (page u64, sequence u64), freelist page u64, page count
// u64, txid u64, then the FNV-64a checksum of everything before it.
type boltMeta struct {
	pageSize                 uint32
	root, freelist, pgid, tx uint64
}

const (
	boltMagic     = 0xED0CDAED
	boltVersion   = 2
	boltPageHead  = 16
	boltMetaBytes = 64
	noFreelist    = ^uint64(0)
)

// newestMeta returns the valid meta page with the greater txid, as bbolt
// chooses. It finds the second meta page as bbolt does: at the page size
// the first one names, or, if that one is invalid, at each possible page
// size.
func newestMeta(f io.ReaderAt, size int64) (boltMeta, error) {
	m0, err0 := readBoltMeta(f, 0)
	sizes := []int64{int64(m0.pageSize)}
	if err0 != nil {
		sizes = sizes[:0]
		for i := range 15 {
			sizes = append(sizes, 1024<<i)
		}
	}
	for _, ps := range sizes {
		if ps >= size {
			break
		}
		m1, err1 := readBoltMeta(f, ps)
		if err1 != nil {
			continue
		}
		if err0 != nil || m1.tx > m0.tx {
			return m1, nil
		}
		return m0, nil
	}
	if err0 != nil {
		return boltMeta{}, fmt.Errorf("neither meta page is valid (%v)", err0)
	}
	return m0, nil
}

func readBoltMeta(f io.ReaderAt, off int64) (boltMeta, error) {
	var b [boltPageHead + boltMetaBytes]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		return boltMeta{}, fmt.Errorf("reading the meta page at offset %d: %w", off, err)
	}
	m := b[boltPageHead:]
	le := binary.LittleEndian
	h := fnv.New64a()
	h.Write(m[:56])
	switch {
	case le.Uint32(m) != boltMagic:
		return boltMeta{}, fmt.Errorf("no bbolt meta page at offset %d", off)
	case le.Uint32(m[4:]) != boltVersion:
		return boltMeta{}, fmt.Errorf("the meta page at offset %d has bbolt version %d, want %d", off, le.Uint32(m[4:]), boltVersion)
	case le.Uint64(m[56:]) != h.Sum64():
		return boltMeta{}, fmt.Errorf("the meta page at offset %d fails its checksum", off)
	}
	meta := boltMeta{pageSize: le.Uint32(m[8:]), root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]),
		pgid: le.Uint64(m[40:]), tx: le.Uint64(m[48:])}
	if meta.pageSize < 512 || meta.pageSize&(meta.pageSize-1) != 0 {
		return boltMeta{}, fmt.Errorf("the meta page at offset %d has page size %d", off, meta.pageSize)
	}
	return meta, nil
}
