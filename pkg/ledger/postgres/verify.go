package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/internal/shared"
)

// pgVerify sums grants, usage and holds per account next to the stored
// balance (which excludes holds).
const pgVerify = `
SELECT a.id, a.balance,
       coalesce(g.credits, 0), coalesce(u.credits, 0), coalesce(h.credits, 0)
FROM ledger_accounts a
LEFT JOIN (SELECT account_id, sum(credits) AS credits FROM ledger_grants GROUP BY account_id) g ON g.account_id = a.id
LEFT JOIN (SELECT account_id, sum(credits) AS credits FROM ledger_usage GROUP BY account_id) u ON u.account_id = a.id
LEFT JOIN (SELECT account_id, sum(credits) AS credits FROM ledger_holds GROUP BY account_id) h ON h.account_id = a.id
ORDER BY a.id`

// Verify checks the books in one repeatable-read snapshot: the stored
// balance plus outstanding holds == grants - charges, and the stored
// balance >= 0.
func (s *postgresStore) Verify(ctx context.Context) (ledger.VerifyReport, error) {
	var report ledger.VerifyReport
	err := s.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, pgNoStatementTimeout); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, pgVerify)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var available, grants, charges, holds int64
			if err := rows.Scan(&id, &available, &grants, &charges, &holds); err != nil {
				return err
			}
			report.Accounts++
			if m, bad := shared.CheckBooks(id, available+holds, charges, grants, charges); bad {
				report.Mismatches = append(report.Mismatches, m)
			} else if available < 0 {
				m.Reason = fmt.Sprintf("negative available balance %d", available)
				report.Mismatches = append(report.Mismatches, m)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return ledger.VerifyReport{}, s.fail("verifying the ledger", err)
	}
	return report, nil
}
