package roadops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

// Change is one step in an operation's life: who did what, when, and the
// operation as it was right after.
type Change struct {
	// Seq numbers changes in the order they were made, from 1 (the
	// embedded store) or in increasing order with gaps (PostgreSQL).
	Seq       int64     `json:"seq"`
	At        time.Time `json:"at"`
	Who       string    `json:"who"`
	Action    string    `json:"action"` // ActionAdd, ActionReview or ActionWithdraw
	Operation Operation `json:"operation"`
}

// The actions of a Change.
const (
	ActionAdd      = "add"
	ActionReview   = "review"
	ActionWithdraw = "withdraw"
)

// Resolution is what a serving mapd found when it resolved an operation
// onto a release: whether it found the road, and how many graph segments
// the operation covers there.
type Resolution struct {
	ID          string    `json:"id"` // the operation's
	DataVersion string    `json:"data_version"`
	Resolved    bool      `json:"resolved"`
	Segments    int       `json:"segments"`
	Detail      string    `json:"detail,omitempty"` // why not resolved, or how (way id, geometry)
	At          time.Time `json:"at"`
	// Shape is the road an operation by way id was placed on, as
	// [lon, lat] points along the way (its part only, for a part), when it
	// resolved by its way id. A later release that lacks the way id (a
	// mapper split or re-created the way) places the operation by this
	// shape instead, as a line.
	Shape [][2]float64 `json:"shape,omitempty"`
}

// Store keeps operations, their history and their resolution reports.
type Store interface {
	// Add validates op and stores it as a new draft: it assigns the ID,
	// State (draft) and the timestamps, and records an "add" change by who.
	Add(ctx context.Context, op Operation, who string) (Operation, error)
	// AddAll adds several operations at once: all of them, or none if any
	// is invalid or the store fails.
	AddAll(ctx context.Context, ops []Operation, who string) ([]Operation, error)
	// Review makes a draft reviewed, so that it applies within its window.
	// Reviewing a reviewed operation changes nothing; a withdrawn one
	// cannot be reviewed (ErrWithdrawn); an unknown id is ErrNotFound.
	Review(ctx context.Context, id, who string) (Operation, error)
	// Withdraw ends a draft or reviewed operation for good. Withdrawing a
	// withdrawn operation changes nothing.
	Withdraw(ctx context.Context, id, who string) (Operation, error)
	// Get returns one operation, or ErrNotFound.
	Get(ctx context.Context, id string) (Operation, error)
	// List returns every operation, in any state, in order of creation.
	List(ctx context.Context) ([]Operation, error)
	// History returns the changes of one operation ("" for all of them),
	// oldest first; ErrNotFound for an unknown id.
	History(ctx context.Context, id string) ([]Change, error)
	// Version grows with every change of an operation, and only then: a
	// cheap poll for watchers. Reports do not change it.
	Version(ctx context.Context) (int64, error)
	// Report records what a serving mapd found resolving operations onto
	// the release dataVersion (At is set to now where zero). A result with
	// the same outcome (Resolved, Segments, Detail) as the latest one for
	// its operation and data version is not recorded again, so reporting
	// every operation at every swap and change costs nothing new, and At
	// says since when the outcome holds.
	Report(ctx context.Context, dataVersion string, results []Resolution) error
	// Resolutions returns the latest report per (operation, data version),
	// by operation id then data version.
	Resolutions(ctx context.Context) ([]Resolution, error)
	Close() error
}

// Errors of the stores.
var (
	// ErrNotFound: no operation has this id.
	ErrNotFound = errors.New("no such road operation")
	// ErrWithdrawn: the operation was withdrawn and cannot be reviewed.
	ErrWithdrawn = errors.New("road operation withdrawn")
	// ErrCorrupt: the embedded file is damaged before its last record.
	ErrCorrupt = errors.New("road operations file damaged")
	// ErrUnavailable: the store could not be read or written.
	ErrUnavailable = errors.New("road operations store unavailable")
)

// Open opens the operations store of the ledger named as mapd's --ledger
// flag names it: a postgres:// or postgresql:// URL selects tables of their
// own in that database (the URL's search_path, created if missing); any
// other value is the path of the embedded ledger file, and the operations
// live in the file FILE.operations beside it (created if missing; its
// directory must exist).
func Open(ctx context.Context, ledger string) (Store, error) {
	switch {
	case ledger == "":
		return nil, errors.New("road operations: empty ledger location")
	case IsPostgres(ledger):
		return openPostgres(ctx, ledger)
	}
	return openEmbedded(EmbeddedPath(ledger))
}

// IsPostgres reports whether a --ledger value names PostgreSQL.
func IsPostgres(ledger string) bool {
	return strings.HasPrefix(ledger, "postgres://") || strings.HasPrefix(ledger, "postgresql://")
}

// EmbeddedPath is the operations file of an embedded ledger file.
func EmbeddedPath(ledgerFile string) string { return ledgerFile + ".operations" }

// sameOutcome reports whether two resolutions say the same, whenever.
func sameOutcome(a, b Resolution) bool {
	return a.Resolved == b.Resolved && a.Segments == b.Segments && a.Detail == b.Detail && slices.Equal(a.Shape, b.Shape)
}

// now is the stores' clock: UTC, to the microsecond that PostgreSQL keeps,
// so that both stores return the same times they were given.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// addOne is Add in terms of AddAll.
func addOne(ctx context.Context, addAll func(context.Context, []Operation, string) ([]Operation, error), op Operation, who string) (Operation, error) {
	added, err := addAll(ctx, []Operation{op}, who)
	if err != nil {
		return Operation{}, err
	}
	return added[0], nil
}

// newDrafts validates ops and makes them new drafts stamped now, or
// returns the first invalid one's error naming its index.
func newDrafts(ops []Operation) ([]Operation, time.Time, error) {
	t := now()
	drafts := make([]Operation, len(ops))
	for i, op := range ops {
		d, err := newDraft(op, "op_"+ulid.Make().String(), t)
		if err != nil {
			return nil, t, fmt.Errorf("operation %d: %w", i, err)
		}
		drafts[i] = d
	}
	return drafts, t, nil
}

// newDraft validates op and makes it a new draft stamped at t.
func newDraft(op Operation, id string, t time.Time) (Operation, error) {
	op = op.clone()
	op.ID, op.State = id, ReviewDraft
	if op.Direction == "" {
		op.Direction = DirBoth
	}
	op.CreatedAt, op.UpdatedAt = t, t
	if err := op.Validate(); err != nil {
		return Operation{}, err
	}
	return op, nil
}

// transition applies a review or withdraw to op at t. changed is false when
// the operation is in the target state already (nothing to record).
func transition(op Operation, action string, t time.Time) (next Operation, changed bool, err error) {
	target := map[string]Review{ActionReview: ReviewReviewed, ActionWithdraw: ReviewWithdrawn}[action]
	switch {
	case op.State == target:
		return op, false, nil
	case action == ActionReview && op.State == ReviewWithdrawn:
		return op, false, fmt.Errorf("reviewing %s: %w (withdrawn operations stay withdrawn: add a new one)", op.ID, ErrWithdrawn)
	}
	op = op.clone()
	op.State, op.UpdatedAt = target, t
	return op, true, nil
}
