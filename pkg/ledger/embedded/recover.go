package embedded

import (
	"context"
	"fmt"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// Recover opens the embedded ledger at path even if its journal is damaged
// or truncated, applies every intact record of the journal's current epoch
// (before and after the damage, in journal order), reports what could not
// be read, and closes the ledger cleanly, so that Open accepts it again.
// Without damage it replays the journal as Open does and reports nothing
// lost. It refuses what it cannot repair: a damaged, empty or missing
// bbolt file (restore it from a backup) and the journal of another ledger.
// It is the only way past a JournalDamageError, and only an operator
// should call it (mapd ledger recover): a charge in the damaged bytes is
// lost, and the cancellation of a charge may be too, which leaves that
// failed request charged.
func Recover(ctx context.Context, path string, opts ledger.Options) (RecoveryReport, error) {
	if shared.IsPostgres(path) {
		return RecoveryReport{}, fmt.Errorf("%w: recover is for the embedded ledger, not %s", ledger.ErrInvalidArgument, "a PostgreSQL one")
	}
	rep := RecoveryReport{Ledger: path, Journal: path + journalSuffix, LostRanges: []ByteRange{}}
	s, err := openBoltWith(ctx, path, withDefaults(opts), &rep)
	if err != nil {
		return rep, err
	}
	return rep, s.Close()
}
