package embedded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// Compaction (issue 34 item 5). bbolt never gives space back to the file
// system: pages freed by pruned Idempotency-Key answers and usage records
// are reused, but the file keeps its largest size. Compact rewrites the
// embedded ledger's bbolt file with only its live data, offline.

// CompactReport says what Compact did.
type CompactReport struct {
	Ledger      string `json:"ledger"`
	BytesBefore int64  `json:"bytes_before"`
	BytesAfter  int64  `json:"bytes_after"`
}

// compactTxSize bounds the bytes Compact copies per transaction.
const compactTxSize = 64 << 20

// Compact rewrites the embedded ledger at path into a new file holding
// only its live pages and renames it over the old one. The ledger must not
// be served (the file lock says so: ErrLocked). It first opens and closes
// the ledger, which replays a crashed process's journal (and refuses a
// damaged one: run Recover first), so the copy starts from a clean close;
// the journal is left as it is, and its header still names the ledger (the
// id is in the copied meta bucket). A crash during Compact leaves the old
// file whole: the copy is written beside it, synced, and then renamed.
func Compact(ctx context.Context, path string, opts ledger.Options) (CompactReport, error) {
	rep := CompactReport{Ledger: path}
	if shared.IsPostgres(path) {
		return rep, fmt.Errorf("%w: compact is for the embedded ledger, not a PostgreSQL one", ledger.ErrInvalidArgument)
	}
	opts.MustExist = true
	s, err := openBoltWith(ctx, path, withDefaults(opts), nil)
	if err != nil {
		return rep, err
	}
	if err := s.Close(); err != nil {
		return rep, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return rep, err
	}
	rep.BytesBefore = st.Size()
	tmp := path + ".compact"
	if err := compactInto(path, tmp); err != nil {
		os.Remove(tmp)
		return rep, fmt.Errorf("compacting ledger %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return rep, fmt.Errorf("compacting ledger %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return rep, fmt.Errorf("compacting ledger %s: %w", path, err)
	}
	if st, err = os.Stat(path); err == nil {
		rep.BytesAfter = st.Size()
	}
	return rep, err
}

// compactInto copies the bbolt file src into a new file dst, synced.
func compactInto(src, dst string) error {
	from, err := bolt.Open(src, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return fmt.Errorf("%w: %s is being served; stop mapd first", ledger.ErrLocked, src)
	}
	if err != nil {
		return err
	}
	defer from.Close()
	os.Remove(dst)
	to, err := bolt.Open(dst, 0o600, &bolt.Options{FreelistType: bolt.FreelistMapType})
	if err != nil {
		return err
	}
	if err := bolt.Compact(to, from, compactTxSize); err != nil {
		to.Close()
		return err
	}
	if err := to.Sync(); err != nil {
		to.Close()
		return err
	}
	return to.Close()
}
