package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// RotateKey locks the old key's row, inserts the successor and dates the
// old key's revocation in one transaction. Other replicas see the
// revocation when it comes due (their cached answers expire by then).
func (s *postgresStore) RotateKey(ctx context.Context, keyID string, grace time.Duration) (ledger.IssuedKey, time.Time, error) {
	defer s.auth.Purge()
	var issued ledger.IssuedKey
	var end time.Time
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var accountID, kind string
		var rate int
		var revokedAt *time.Time
		err := tx.QueryRow(ctx, `SELECT account_id, kind, rate_limit, revoked_at FROM ledger_keys WHERE id = $1 FOR UPDATE`,
			keyID).Scan(&accountID, &kind, &rate, &revokedAt)
		if errors.Is(err, pgx.ErrNoRows) {
			return ledger.ErrUnknownKeyID
		}
		if err != nil {
			return err
		}
		now := s.opts.Now().UTC()
		if end, err = shared.RotationEnd(keyID, revokedAt, now, grace); err != nil {
			return err
		}
		key, hash, err := shared.PrepareKey(accountID, ledger.KeyKind(kind), rate)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO ledger_keys (id, account_id, hash, kind, rate_limit, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, key.KeyID, accountID, hash[:], kind, rate, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE ledger_keys SET revoked_at = $2 WHERE id = $1`, keyID, end); err != nil {
			return err
		}
		issued = key
		return nil
	})
	if err != nil {
		return ledger.IssuedKey{}, time.Time{}, s.fail("rotating key "+keyID, err)
	}
	return issued, end, nil
}
