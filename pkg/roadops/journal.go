package roadops

// The embedded store's file format. Every line is one record:
//
//	CRC SP JSON LF
//
// CRC is the CRC-32C (Castagnoli) of the JSON bytes as 8 lowercase hex
// digits. The first record is the header ({"header":{...}}, naming the
// format and its version); every later one is a batch of changes made
// together ({"changes":[Change...]}: one for add, review and withdraw,
// many for an import) or one resolution report ({"report":{...}}). A
// record is written with one write and fsynced before the writer returns,
// so a crash can leave only the last line torn: without its LF, or with a
// CRC that does not match. Readers ignore such a last line and the next
// writer cuts it off; a bad line with intact lines after it is damage.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strconv"
)

// journalFormat and journalVersion identify the file in its header.
const (
	journalFormat  = "mapd road operations"
	journalVersion = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type journalHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

type journalReport struct {
	DataVersion string       `json:"data_version"`
	Results     []Resolution `json:"results"`
}

type journalRecord struct {
	Header  *journalHeader `json:"header,omitempty"`
	Changes []Change       `json:"changes,omitempty"`
	Report  *journalReport `json:"report,omitempty"`
}

// encodeRecord returns the record's line, LF included.
func encodeRecord(r journalRecord) ([]byte, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encoding a road operations record: %w", err)
	}
	line := make([]byte, 0, len(body)+10)
	line = fmt.Appendf(line, "%08x ", crc32.Checksum(body, castagnoli))
	line = append(line, body...)
	return append(line, '\n'), nil
}

// decodeLine checks one line (without its LF) and decodes its record.
func decodeLine(line []byte) (journalRecord, error) {
	var r journalRecord
	if len(line) < 10 || line[8] != ' ' {
		return r, fmt.Errorf("no checksum")
	}
	want, err := strconv.ParseUint(string(line[:8]), 16, 32)
	if err != nil {
		return r, fmt.Errorf("checksum %q is not hex", line[:8])
	}
	body := line[9:]
	if got := crc32.Checksum(body, castagnoli); got != uint32(want) {
		return r, fmt.Errorf("checksum mismatch (%08x, recorded %08x)", got, want)
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return r, fmt.Errorf("decoding: %w", err)
	}
	return r, nil
}

// scanJournal decodes the records in data, which starts at file offset
// base and ends at the end of the file. It returns them and how many bytes
// they take; the bytes after that are a torn last record to ignore. A bad
// line followed by more lines is ErrCorrupt.
func scanJournal(data []byte, base int64) (records []journalRecord, used int, err error) {
	for used < len(data) {
		end := bytes.IndexByte(data[used:], '\n')
		if end < 0 {
			return records, used, nil // torn: the writer died mid-line
		}
		r, derr := decodeLine(data[used : used+end])
		if derr != nil {
			if used+end+1 == len(data) {
				return records, used, nil // torn last line
			}
			return records, used, fmt.Errorf("%w: record at offset %d: %v (intact records follow it)", ErrCorrupt, base+int64(used), derr)
		}
		records = append(records, r)
		used += end + 1
	}
	return records, used, nil
}
