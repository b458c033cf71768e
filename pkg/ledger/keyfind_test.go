package ledger

import "testing"

func TestRedactKeys(t *testing.T) {
	for in, want := range map[string]string{
		"revoking sk_MQ5Zb1A1HFKxxBAp597Q2MvUyslmTPGv3Iyu3d27LAz2djOYH: no": "revoking sk_…jOYH: no",
		"account pk_abcdEFGH and sk_1234":                                   "account pk_…EFGH and sk_…1234",
		"key_01m8gqhsmcv0nj6pnnt28sb2ra":                                    "key_01m8gqhsmcv0nj6pnnt28sb2ra",
		"sk_ab":                                                             "sk_ab", // under four characters: nothing to hide
		"task_1234 desk_abcdef":                                             "task_1234 desk_abcdef",
	} {
		if got := RedactKeys(in); got != want {
			t.Errorf("RedactKeys(%q) = %q, want %q", in, got, want)
		}
	}
}
