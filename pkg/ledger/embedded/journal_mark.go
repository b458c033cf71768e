package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The acknowledgement mark (issue 34 item 2). Damage at the journal's tail
// (zeros, a truncation) looks like the end of the sequence, so the records
// of the last acknowledged charges could vanish unseen: replay would stop
// early, verify would find nothing wrong. The journal therefore says, in
// its header page, how far its current epoch was written: after every
// write of records, before any of them is acknowledged, the writer
// rewrites the mark at journalMarkOffset:
//
//	[8]byte "mapdack\n"
//	u64 epoch
//	u64 end: the journal offset the records written so far reach
//	u64 records: how many records the epoch holds below end
//	u64 charges: how many of them are charges (the rest cancellations)
//	u32 CRC-32C of the 40 bytes before it
//
// A write of records never touches the header page, so damage to the
// records, or a truncation that leaves the first page, cannot erase it.
// Open, Verify and Recover count the epoch's intact records below the
// mark's end: fewer than the mark says means acknowledged records are
// gone, and Open refuses the ledger (JournalDamageError.Missing), Verify
// reports it, and Recover reports exactly how many charges it could not
// apply. The mark costs one pwrite of 44 bytes per write of records, in
// the same file, so the fdatasync that makes the records durable carries
// it too.
//
// Limits: a journal truncated into its first page loses the mark too (the
// header is then damaged, which Open refuses anyway, and Recover can only
// estimate). With --ledger-sync commit, a power loss during a sync may
// leave the mark ahead of records that were never acknowledged; Recover
// then counts those as lost although no client was answered for them. A
// kill -9 (the page cache survives) leaves the mark exact.
const (
	journalMarkOffset = 2048
	journalMarkMagic  = "mapdack\n"
	journalMarkSize   = 44
)

// ackMark is the decoded mark.
type ackMark struct {
	epoch            uint64
	end              int64
	records, charges int64
}

func (m ackMark) encode() []byte {
	b := make([]byte, 0, journalMarkSize)
	b = append(b, journalMarkMagic...)
	b = binary.LittleEndian.AppendUint64(b, m.epoch)
	b = binary.LittleEndian.AppendUint64(b, uint64(m.end))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.records))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.charges))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// errNoMark means the header page holds no mark: a journal written before
// marks existed, or one that has not been written to yet.
var errNoMark = errors.New("no acknowledgement mark")

func decodeAckMark(b []byte) (ackMark, error) {
	le := binary.LittleEndian
	// No magic: zeros, or what a format 1 journal converted to format 2
	// left in its first page (records, which the first write overwrites).
	switch {
	case len(b) < journalMarkSize || string(b[:8]) != journalMarkMagic:
		return ackMark{}, errNoMark
	case crc32.Checksum(b[:40], castagnoli) != le.Uint32(b[40:]):
		return ackMark{}, errors.New("the acknowledgement mark fails its checksum")
	}
	return ackMark{epoch: le.Uint64(b[8:]), end: int64(le.Uint64(b[16:])),
		records: int64(le.Uint64(b[24:])), charges: int64(le.Uint64(b[32:]))}, nil
}

// writeMark records how far the current epoch was written.
func (j *journal) writeMark() error {
	m := ackMark{epoch: j.epoch, end: j.off, records: j.records, charges: j.charges}
	if _, err := j.f.WriteAt(m.encode(), journalMarkOffset); err != nil {
		return fmt.Errorf("writing the acknowledgement mark of journal %s: %w", j.path, err)
	}
	return nil
}

// readMark reads the mark from the header page.
func (j *journal) readMark() (ackMark, error) {
	b := make([]byte, journalMarkSize)
	n, err := j.f.ReadAt(b, journalMarkOffset)
	if err != nil && !errors.Is(err, io.EOF) {
		return ackMark{}, err
	}
	return decodeAckMark(b[:n])
}
