package main

// Admin commands: staff tools over the ledger (accounts, credits, keys,
// caps, usage) and its maintenance (init, verify, migrate, recover). Each command
// reaches the ledger named by --ledger, does one thing, prints JSON on
// stdout and lets go of it. With an embedded ledger that a mapd serves, the
// command runs inside that mapd, through its admin socket (pkg/admin), so
// the change is seen by its next request; with none serving, it opens the
// file itself (adminopen.go). The output is the same either way. Secrets
// are printed only where a key is issued, and never put in errors.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mapsco/maps/pkg/ledger"
	"github.com/mapsco/maps/pkg/ledger/embedded"
)

// adminTimeout bounds one admin command's work on the ledger.
const adminTimeout = 30 * time.Second

// defaultLedger is where mapd serve and the admin commands find the ledger
// when --ledger is not given: beside the releases, as make demo puts it.
const defaultLedger = "releases/ledger.db"

// newAdminCommands returns the top-level account, credits, key, caps and
// ledger commands, each with its own --ledger flag.
func newAdminCommands() []*cobra.Command {
	return []*cobra.Command{
		ledgerGroup("account", "Create, show, suspend and restore accounts",
			accountCreateCmd, accountShowCmd, accountStatusCmd("suspend"), accountStatusCmd("restore")),
		ledgerGroup("credits", "Add prepaid credits to an account", creditsAddCmd),
		ledgerGroup("key", "Issue, show, rotate and revoke API keys", keyIssueCmd, keyShowCmd, keyRotateCmd, keyRevokeCmd),
		ledgerGroup("caps", "Set an account's spend caps", capsSetCmd),
		ledgerGroup("ledger", "Create, check, migrate and recover the ledger itself", ledgerInitCmd, ledgerVerifyCmd, ledgerMigrateCmd, ledgerRecoverCmd, ledgerCompactCmd),
	}
}

// ledgerFlag holds the flags shared by a group's subcommands: where the
// ledger is and, for an embedded one, where its mapd's admin socket is.
type ledgerFlag struct {
	dsn    string
	socket string // "" = beside the ledger file
}

func ledgerGroup(name, short string, subs ...func(*ledgerFlag) *cobra.Command) *cobra.Command {
	lf := &ledgerFlag{}
	group := &cobra.Command{Use: name, Short: short}
	group.PersistentFlags().StringVar(&lf.dsn, "ledger", defaultLedger,
		"ledger: an embedded file (FILE and FILE-journal) or a postgres:// URL")
	group.PersistentFlags().StringVar(&lf.socket, "admin-socket", "",
		"embedded ledger: the admin socket of the mapd serving it (default FILE-admin.sock)")
	for _, sub := range subs {
		group.AddCommand(sub(lf))
	}
	return group
}

// withLedger reaches the ledger (through a serving mapd, or directly; see
// openAdmin), runs fn, and lets go of it. Only account create and ledger
// init may create an embedded ledger file (create true).
func withLedger(cmd *cobra.Command, lf *ledgerFlag, create bool, fn func(context.Context, ledger.Admin) error) error {
	ctx, cancel := context.WithTimeout(cmd.Context(), adminTimeout)
	defer cancel()
	a, release, err := openAdmin(ctx, lf, create)
	if err != nil {
		return err
	}
	if err := fn(ctx, a); err != nil {
		release()
		return err
	}
	return release()
}

func printJSON(cmd *cobra.Command, v any) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetEscapeHTML(false) // URLs and names print as typed: & not \u0026
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func parseCredits(arg string) (int64, error) {
	n, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("credits %q: want a positive integer", arg)
	}
	return n, nil
}

// issuedKeyJSON shows a key at issue time, the only time its secret shows.
func issuedKeyJSON(k ledger.IssuedKey) map[string]any {
	field := "secret_key"
	if k.Kind == ledger.KindPublic {
		field = "public_key"
	}
	return map[string]any{"account_id": k.AccountID, "key_id": k.KeyID, "kind": k.Kind,
		"rate_limit": k.RateLimit, field: k.Secret.Reveal()}
}

func accountCreateCmd(lf *ledgerFlag) *cobra.Command {
	var credits int64
	var caps ledger.Caps
	cmd := &cobra.Command{
		Use:   "create --credits N [--daily N] [--monthly N]",
		Short: "Create an account with N credits and print its first secret key (shown once)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var explicit *ledger.Caps
			if cmd.Flags().Changed("daily") || cmd.Flags().Changed("monthly") {
				explicit = &caps
			}
			return withLedger(cmd, lf, true, func(ctx context.Context, s ledger.Admin) error {
				acct, err := s.CreateAccount(ctx, credits, explicit)
				if err != nil {
					return err
				}
				return printJSON(cmd, map[string]string{"account_id": acct.AccountID, "key_id": acct.Key.KeyID,
					"secret_key": acct.Key.Secret.Reveal()})
			})
		},
	}
	cmd.Flags().Int64Var(&credits, "credits", 0, "initial credits (required)")
	cmd.Flags().Int64Var(&caps.Daily, "daily", ledger.DefaultDailyCap, "daily spend cap in credits, 0 = none")
	cmd.Flags().Int64Var(&caps.Monthly, "monthly", 0, "monthly spend cap in credits, 0 = none")
	_ = cmd.MarkFlagRequired("credits")
	return cmd
}

func accountShowCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "show ACCOUNT_ID",
		Short: "Show balance, caps, status, keys and usage totals",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				acct, err := s.GetAccount(ctx, args[0])
				if err != nil {
					return err
				}
				return printJSON(cmd, acct)
			})
		},
	}
}

// accountStatusCmd builds "suspend" or "restore".
func accountStatusCmd(verb string) func(*ledgerFlag) *cobra.Command {
	return func(lf *ledgerFlag) *cobra.Command {
		return &cobra.Command{
			Use:   verb + " ACCOUNT_ID",
			Short: map[string]string{"suspend": "Refuse the account's requests (403)", "restore": "Serve a suspended account again"}[verb],
			Args:  cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
					change, status := s.Suspend, ledger.StatusSuspended
					if verb == "restore" {
						change, status = s.Restore, ledger.StatusActive
					}
					if err := change(ctx, args[0]); err != nil {
						return err
					}
					return printJSON(cmd, map[string]any{"account_id": args[0], "status": status})
				})
			},
		}
	}
}

func creditsAddCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "add ACCOUNT_ID N",
		Short: "Grant N credits to an account",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseCredits(args[1])
			if err != nil {
				return err
			}
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				balance, err := s.AddCredits(ctx, args[0], n)
				if err != nil {
					return err
				}
				return printJSON(cmd, map[string]any{"account_id": args[0], "added": n, "balance": balance})
			})
		},
	}
}

func keyIssueCmd(lf *ledgerFlag) *cobra.Command {
	var kind string
	var rate int
	cmd := &cobra.Command{
		Use: "issue ACCOUNT_ID --kind secret|public [--rate N]",
		// "key create" is what a newcomer types (accounts are created).
		SuggestFor: []string{"create", "new", "add"},
		Short:      "Issue a key and print it (shown once)",
		Args:       cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				key, err := s.IssueKey(ctx, args[0], ledger.KeyKind(kind), rate)
				if err != nil {
					return err
				}
				return printJSON(cmd, issuedKeyJSON(key))
			})
		},
	}
	cmd.Flags().StringVar(&kind, "kind", "secret", "secret (server-side, compute endpoints) or public")
	cmd.Flags().IntVar(&rate, "rate", 0, "requests/second for this key, 0 = the server's --rate-limit")
	return cmd
}

// defaultGrace is how long a rotated key keeps working: a day to roll the
// new key out to every server that uses the old one.
const defaultGrace = 24 * time.Hour

func keyRotateCmd(lf *ledgerFlag) *cobra.Command {
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "rotate KEY_ID [--grace DURATION]",
		Short: "Issue a successor of a key (printed once) and revoke the old one after a grace period",
		Long: `rotate issues a new key of the same account, kind and rate limit as KEY_ID, prints it as
key issue does (the only time it shows), and dates the old key's revocation --grace from now:
until then both keys work, so clients can switch over without an outage; from then on the old
one is refused (401). An earlier revocation already scheduled is kept; --grace 0 revokes the old
key at once, and key revoke ends a grace period early.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				key, end, err := s.RotateKey(ctx, args[0], grace)
				if err != nil {
					return err
				}
				out := issuedKeyJSON(key)
				out["replaces"] = args[0]
				out["old_key_revoked_at"] = end
				return printJSON(cmd, out)
			})
		},
	}
	cmd.Flags().DurationVar(&grace, "grace", defaultGrace, "how long the old key keeps working (0: revoke it now)")
	return cmd
}

func keyRevokeCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke KEY_ID|SECRET",
		Short: "Revoke a key by its id (key_...) or by the secret itself (sk_..., pk_...)",
		Long: `revoke refuses a key from now on (401). Give its id, or, for a leaked key whose id you do
not know, the secret itself: it is hashed here and only the hash reaches the ledger, as only
the hash is stored. The secret is never printed, in the answer or in an error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				key, err := findKey(ctx, s, args[0])
				if err != nil {
					return err
				}
				if err := s.RevokeKey(ctx, key.KeyID); err != nil {
					return err
				}
				return printJSON(cmd, map[string]any{"key_id": key.KeyID, "account_id": key.AccountID, "revoked": true})
			})
		},
	}
}

func keyShowCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "show KEY_ID|SECRET",
		Short: "Show a key's id, account, kind, rate limit and revocation, by id or by the secret itself",
		Long: `show prints what the ledger knows of a key: its id, account, kind, rate limit, creation
and revocation times. Give its id or the secret itself (hashed here, never printed), e.g. to
find which account a leaked key belongs to.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				key, err := findKey(ctx, s, args[0])
				if err != nil {
					return err
				}
				return printJSON(cmd, key)
			})
		},
	}
}

// findKey finds a key by id or by secret. A secret is hashed before it
// leaves this process, and appears in errors by its last four characters.
func findKey(ctx context.Context, s ledger.Admin, arg string) (ledger.KeyDetail, error) {
	if !strings.HasPrefix(arg, "sk_") && !strings.HasPrefix(arg, "pk_") {
		return s.FindKey(ctx, ledger.KeyRef{KeyID: arg})
	}
	hash, err := ledger.KeyHash(arg)
	if err != nil {
		return ledger.KeyDetail{}, fmt.Errorf("%s is not a whole key (wrong length, characters or checksum: was it copied whole?)", ledger.RedactKeys(arg))
	}
	key, err := s.FindKey(ctx, ledger.KeyRef{Hash: hash})
	if err != nil {
		return ledger.KeyDetail{}, fmt.Errorf("%s: %w", ledger.RedactKeys(arg), err)
	}
	return key, nil
}

func capsSetCmd(lf *ledgerFlag) *cobra.Command {
	var caps ledger.Caps
	cmd := &cobra.Command{
		Use:   "set ACCOUNT_ID [--daily N] [--monthly N]",
		Short: "Set spend caps in credits (0 = no cap); an omitted cap keeps its value",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("daily") && !cmd.Flags().Changed("monthly") {
				return fmt.Errorf("caps set %s: give --daily, --monthly or both", args[0])
			}
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				acct, err := s.GetAccount(ctx, args[0])
				if err != nil {
					return err
				}
				next := acct.Caps
				if cmd.Flags().Changed("daily") {
					next.Daily = caps.Daily
				}
				if cmd.Flags().Changed("monthly") {
					next.Monthly = caps.Monthly
				}
				if err := s.SetCaps(ctx, args[0], next); err != nil {
					return err
				}
				return printJSON(cmd, map[string]any{"account_id": args[0], "caps": next})
			})
		},
	}
	cmd.Flags().Int64Var(&caps.Daily, "daily", 0, "daily spend cap in credits, 0 = none")
	cmd.Flags().Int64Var(&caps.Monthly, "monthly", 0, "monthly spend cap in credits, 0 = none")
	return cmd
}

func ledgerInitCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create an empty ledger (a new embedded file, or the schema in PostgreSQL); idempotent",
		Long: `init creates the ledger --ledger names, empty: for an embedded ledger the files FILE and
FILE-journal, for PostgreSQL the tables in the schema the URL's search_path selects (the schema
itself must exist). Every other command except account create refuses a ledger that does not
exist, so that a mistyped path never becomes a silent empty ledger. On an existing ledger init
changes nothing and says so.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			existed := ledgerExists(cmd.Context(), lf)
			return withLedger(cmd, lf, true, func(ctx context.Context, s ledger.Admin) error {
				return printJSON(cmd, map[string]any{"ledger": lf.display(), "created": !existed})
			})
		},
	}
}

func ledgerVerifyCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "Check that every balance equals grants minus charges, and (embedded) every page, record and the journal; exit 1 if not",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				report, err := s.Verify(ctx)
				if err != nil {
					return err
				}
				if report.Mismatches == nil {
					report.Mismatches = []ledger.Mismatch{}
				}
				out := map[string]any{"ok": report.OK(), "accounts": report.Accounts, "mismatches": report.Mismatches}
				if report.Journal != nil {
					out["journal"], out["damage"] = report.Journal, append([]string{}, report.Damage...)
				}
				if err := printJSON(cmd, out); err != nil {
					return err
				}
				switch {
				case len(report.Damage) > 0:
					return fmt.Errorf("ledger verify: the ledger's files are damaged: %s", strings.Join(report.Damage, "; "))
				case !report.OK():
					return fmt.Errorf("ledger verify: %d of %d accounts do not balance", len(report.Mismatches), report.Accounts)
				}
				return nil
			})
		},
	}
}

// ledgerRecoverCmd is the only way past a damaged journal: it applies what
// is intact and prints what is lost.
func ledgerRecoverCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "recover",
		Short: "Open an embedded ledger whose journal is damaged: apply every intact record and report what is lost",
		Long: `recover is for an embedded ledger that Open refuses because its journal is damaged or truncated
(mapd serve and every other command then stop with "journal ... is damaged at offset ..."). It applies
every intact charge and cancellation of the journal, before and after the damage, closes the ledger
cleanly and prints a report: the damaged byte ranges, how many records were applied and about how many
were lost. The charges in the damaged bytes are lost (served, not billed), and so may be cancellations
(a failed request stays charged). Run it with mapd stopped, after copying both files aside; then run
mapd ledger verify. It cannot repair a damaged bbolt file: restore that from a backup.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := embedded.Recover(cmd.Context(), lf.dsn, ledger.Options{Logger: adminLogger()})
			if err != nil {
				return err
			}
			return printJSON(cmd, rep)
		},
	}
}

// ledgerCompactCmd rewrites the embedded ledger's bbolt file with only its
// live pages: bbolt never shrinks the file by itself.
func ledgerCompactCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "compact",
		Short: "Rewrite an embedded ledger's file with only its live data (mapd stopped)",
		Long: `compact gives back to the file system the space bbolt keeps after pruning (expired Idempotency-Key
answers, usage records past --usage-retention): bbolt reuses freed pages but never shrinks its file. It
replays the journal if mapd crashed (a damaged journal is refused: run mapd ledger recover first), copies
the live data into FILE.compact, syncs it and renames it over FILE, and prints the sizes before and after.
Run it with mapd stopped (a served ledger is refused), after a backup.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := embedded.Compact(cmd.Context(), lf.dsn, ledger.Options{Logger: adminLogger()})
			if err != nil {
				return err
			}
			return printJSON(cmd, rep)
		},
	}
}

func ledgerMigrateCmd(lf *ledgerFlag) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Bring the ledger schema to this binary's version (idempotent)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withLedger(cmd, lf, false, func(ctx context.Context, s ledger.Admin) error {
				if err := s.Migrate(ctx); err != nil {
					return err
				}
				return printJSON(cmd, map[string]any{"migrated": true})
			})
		},
	}
}
