package synth

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/qedus/osmpbf/OSMPBF"
	"google.golang.org/protobuf/proto"
)

// Limits of one PrimitiveBlock. osmium and most readers expect at most 8000
// entities per block; the byte budget keeps a block of long ways far below
// the format's 32 MiB uncompressed blob limit.
const (
	maxBlockEntities = 8000
	maxBlockBytes    = 8 << 20
)

// Tag is one OSM key=value pair. Tags are written in the order given, so
// callers sort them to keep output deterministic.
type Tag struct{ Key, Value string }

// Member is one relation member: Type is "n", "w" or "r".
type Member struct {
	Type string
	ID   int64
	Role string
}

// kind orders a PBF's sections: all nodes, then ways, then relations.
type kind int

const (
	kindNone kind = iota
	kindNode
	kindWay
	kindRelation
)

// PBFWriter writes an OSM PBF: an OSMHeader blob, then OSMData blobs of
// zlib-compressed PrimitiveBlocks. It rejects ids that are not strictly
// increasing within a kind and kinds out of order, so what it writes is
// sorted the way osmium expects.
type PBFWriter struct {
	w      io.Writer
	blk    blockBuilder
	kind   kind
	lastID int64
	zbuf   bytes.Buffer
	zw     *zlib.Writer
}

// NewPBFWriter writes the header block; bbox is left, bottom, right, top in
// 1e-7 degrees.
func NewPBFWriter(w io.Writer, bbox [4]int32, program string) (*PBFWriter, error) {
	p := &PBFWriter{w: w}
	p.zw = zlib.NewWriter(&p.zbuf)
	p.blk.reset()
	const toNano = 100 // 1e-7 degrees → nanodegrees
	hdr := &OSMPBF.HeaderBlock{
		Bbox: &OSMPBF.HeaderBBox{
			Left: proto.Int64(int64(bbox[0]) * toNano), Bottom: proto.Int64(int64(bbox[1]) * toNano),
			Right: proto.Int64(int64(bbox[2]) * toNano), Top: proto.Int64(int64(bbox[3]) * toNano),
		},
		RequiredFeatures: []string{"OsmSchema-V0.6", "DenseNodes"},
		OptionalFeatures: []string{"Sort.Type_then_ID"},
		Writingprogram:   proto.String(program),
	}
	if err := p.writeBlob("OSMHeader", hdr); err != nil {
		return nil, err
	}
	return p, nil
}

// advance checks ordering and starts a new block when the kind changes or
// the current one is full.
func (p *PBFWriter) advance(k kind, id int64, size int) error {
	switch {
	case k < p.kind:
		return fmt.Errorf("synth: pbf: kind %d after kind %d (write nodes, ways, relations in order)", k, p.kind)
	case k == p.kind && id <= p.lastID:
		return fmt.Errorf("synth: pbf: id %d after %d (ids must increase)", id, p.lastID)
	}
	if k != p.kind || p.blk.entities >= maxBlockEntities || p.blk.bytes+size > maxBlockBytes {
		if err := p.flush(); err != nil {
			return err
		}
	}
	p.kind, p.lastID = k, id
	p.blk.entities++
	p.blk.bytes += size
	return nil
}

// Node adds a node at lon, lat (1e-7 degrees).
func (p *PBFWriter) Node(id int64, lon, lat int32, tags []Tag) error {
	if err := p.advance(kindNode, id, 16+16*len(tags)); err != nil {
		return err
	}
	p.blk.addNode(id, lon, lat, tags)
	return nil
}

// Way adds a way through refs.
func (p *PBFWriter) Way(id int64, refs []int64, tags []Tag) error {
	if err := p.advance(kindWay, id, 8+4*len(refs)+16*len(tags)); err != nil {
		return err
	}
	p.blk.addWay(id, refs, tags)
	return nil
}

// Relation adds a relation.
func (p *PBFWriter) Relation(id int64, members []Member, tags []Tag) error {
	if err := p.advance(kindRelation, id, 8+12*len(members)+16*len(tags)); err != nil {
		return err
	}
	return p.blk.addRelation(id, members, tags)
}

// Close writes the last block. It does not close the underlying writer.
func (p *PBFWriter) Close() error { return p.flush() }

func (p *PBFWriter) flush() error {
	if p.blk.entities == 0 {
		return nil
	}
	err := p.writeBlob("OSMData", p.blk.build())
	p.blk.reset()
	return err
}

// writeBlob frames msg as BlobHeader length, BlobHeader, zlib Blob.
func (p *PBFWriter) writeBlob(typ string, msg proto.Message) error {
	raw, err := proto.MarshalOptions{Deterministic: true}.Marshal(msg)
	if err != nil {
		return fmt.Errorf("synth: pbf: encode %s: %w", typ, err)
	}
	p.zbuf.Reset()
	p.zw.Reset(&p.zbuf)
	if _, err := p.zw.Write(raw); err != nil {
		return fmt.Errorf("synth: pbf: compress: %w", err)
	}
	if err := p.zw.Close(); err != nil {
		return fmt.Errorf("synth: pbf: compress: %w", err)
	}
	blob, err := proto.Marshal(&OSMPBF.Blob{RawSize: proto.Int32(int32(len(raw))), Data: &OSMPBF.Blob_ZlibData{ZlibData: p.zbuf.Bytes()}})
	if err != nil {
		return fmt.Errorf("synth: pbf: encode blob: %w", err)
	}
	hdr, err := proto.Marshal(&OSMPBF.BlobHeader{Type: proto.String(typ), Datasize: proto.Int32(int32(len(blob)))})
	if err != nil {
		return fmt.Errorf("synth: pbf: encode blob header: %w", err)
	}
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(hdr)))
	for _, b := range [][]byte{n[:], hdr, blob} {
		if _, err := p.w.Write(b); err != nil {
			return fmt.Errorf("synth: pbf: write: %w", err)
		}
	}
	return nil
}
