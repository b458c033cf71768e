package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// UsageReport reads the account's grants and usage records in one
// repeatable-read snapshot; ledger_usage_account (account_id, created_at)
// serves the range.
func (s *postgresStore) UsageReport(ctx context.Context, accountID string, from, to time.Time) (ledger.UsageReport, error) {
	fromDay, toDay, start, end, err := shared.ReportRange(accountID, from, to)
	if err != nil {
		return ledger.UsageReport{}, err
	}
	r := ledger.UsageReport{AccountID: accountID, From: shared.DayString(fromDay), To: shared.DayString(toDay)}
	err = s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var before int64
		err := tx.QueryRow(ctx, `
			SELECT coalesce((SELECT sum(credits) FROM ledger_grants WHERE account_id = a.id AND created_at < $2), 0),
			       coalesce((SELECT sum(credits) FROM ledger_grants WHERE account_id = a.id AND created_at >= $2 AND created_at < $3), 0),
			       coalesce((SELECT sum(credits) FROM ledger_usage WHERE account_id = a.id AND created_at < $2), 0)
			FROM ledger_accounts a WHERE a.id = $1`, accountID, start, end).Scan(&r.Balance.Opening, &r.Balance.Granted, &before)
		if errors.Is(err, pgx.ErrNoRows) {
			return ledger.ErrUnknownAccount
		}
		if err != nil {
			return err
		}
		r.Balance.Opening -= before
		rows, err := tx.Query(ctx, `
			SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), operation, count(*), sum(credits)
			FROM ledger_usage WHERE account_id = $1 AND created_at >= $2 AND created_at < $3
			GROUP BY 1, 2 ORDER BY 1, operation COLLATE "C"`, accountID, start, end)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var d ledger.DayUsage
			if err := rows.Scan(&d.Date, &d.Operation, &d.Requests, &d.Credits); err != nil {
				return err
			}
			r.Days = append(r.Days, d)
		}
		return rows.Err()
	})
	if err != nil {
		return ledger.UsageReport{}, s.fail("reporting the usage of account "+accountID, err)
	}
	shared.FinishReport(&r)
	return r, nil
}
