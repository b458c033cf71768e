package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/roadops"
	"github.com/spf13/cobra"
)

// runOps executes one `mapd operations ...` line in process and returns
// stdout and the error.
func runOps(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := &cobra.Command{Use: "mapd", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(newAdminCommands()...)
	root.AddCommand(newOperationsCommand())
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"operations"}, args...))
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// mustOps runs an operations command that must succeed and decodes its
// JSON output into v.
func mustOps(t *testing.T, v any, args ...string) string {
	t.Helper()
	out, err := runOps(t, args...)
	if err != nil {
		t.Fatalf("mapd operations %s: %v", strings.Join(args, " "), err)
	}
	if v != nil {
		if err := json.Unmarshal([]byte(out), v); err != nil {
			t.Fatalf("mapd operations %s printed %q, not JSON: %v", strings.Join(args, " "), out, err)
		}
	}
	return out
}

// runOperationsScenario walks every operations command against one ledger.
func runOperationsScenario(t *testing.T, dsn string) {
	mustAdmin(t, "ledger", "init", "--ledger", dsn)
	l := []string{"--ledger", dsn, "--by", "ana"}
	with := func(args ...string) []string { return append(args, l...) }

	var tunnel roadops.Operation
	mustOps(t, &tunnel, with("add", "--kind", "closure", "--way", "6176755", "--direction", "forward",
		"--reason", "accident in the Envalira tunnel", "--reference", "CG-2a notice 117")...)
	if !strings.HasPrefix(tunnel.ID, "op_") || tunnel.State != roadops.ReviewDraft || tunnel.Way != 6176755 ||
		tunnel.Direction != roadops.DirForward || tunnel.Reference != "CG-2a notice 117" {
		t.Errorf("add printed %+v", tunnel)
	}
	var slow roadops.Operation
	mustOps(t, &slow, with("add", "--kind", "slowdown", "--way", "6176755", "--from", "1.7197,42.5401", "--to", "1.7312, 42.5449",
		"--factor", "2.5", "--profiles", "car,truck", "--valid-from", "2026-11-28T08:00:00Z", "--valid-until", "2026-11-29T09:00:00+01:00",
		"--reason", "snow")...)
	if slow.From == nil || *slow.To != [2]float64{1.7312, 42.5449} || slow.Factor != 2.5 || len(slow.Profiles) != 2 ||
		slow.ValidUntil == nil || slow.ValidUntil.UTC().Hour() != 8 {
		t.Errorf("add (part of a way) printed %+v", slow)
	}
	var line roadops.Operation
	mustOps(t, &line, with("add", "--kind", "slowdown", "--line", "1.52,42.50;1.53,42.51;1.535,42.515", "--speed-kph", "20", "--reason", "works")...)
	if len(line.Line) != 3 || line.SpeedKPH != 20 {
		t.Errorf("add --line printed %+v", line)
	}
	polygonFile := filepath.Join(t.TempDir(), "market.geojson")
	if err := os.WriteFile(polygonFile, []byte(`{"type":"Feature","properties":{},"geometry":{"type":"Polygon",
		"coordinates":[[[1.530,42.505],[1.536,42.505],[1.536,42.510],[1.530,42.510],[1.530,42.505]]]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var area roadops.Operation
	mustOps(t, &area, with("add", "--kind", "closure", "--polygon-file", polygonFile, "--profiles", "truck", "--reason", "market")...)
	if len(area.Polygon) != 1 || len(area.Polygon[0]) != 5 {
		t.Errorf("add --polygon-file printed %+v", area)
	}

	var reviewed roadops.Operation
	mustOps(t, &reviewed, "review", tunnel.ID, "--ledger", dsn, "--by", "ben")
	if reviewed.State != roadops.ReviewReviewed {
		t.Errorf("review printed %+v", reviewed)
	}
	mustOps(t, nil, with("review", line.ID)...)
	var withdrawn roadops.Operation
	mustOps(t, &withdrawn, with("withdraw", line.ID)...)
	if withdrawn.State != roadops.ReviewWithdrawn {
		t.Errorf("withdraw printed %+v", withdrawn)
	}

	var imported struct {
		Imported int
		IDs      []string `json:"ids"`
	}
	mustOps(t, &imported, with("import", "../../pkg/roadops/testdata/operations.geojson")...)
	if imported.Imported != 3 || len(imported.IDs) != 3 {
		t.Errorf("import printed %+v", imported)
	}

	var listed []listedOp
	mustOps(t, &listed, with("list", "--format", "json")...)
	wantOrder := []string{tunnel.ID, slow.ID, line.ID, area.ID, imported.IDs[0], imported.IDs[1], imported.IDs[2]}
	if len(listed) != len(wantOrder) {
		t.Fatalf("list has %d operations, want %d", len(listed), len(wantOrder))
	}
	for i, op := range listed {
		if op.ID != wantOrder[i] {
			t.Errorf("list[%d] = %s, want %s (by creation)", i, op.ID, wantOrder[i])
		}
		if op.Active != (op.ID == tunnel.ID) || op.Resolutions == nil {
			t.Errorf("list[%d]: active %v, resolutions %v", i, op.Active, op.Resolutions)
		}
	}
	for state, want := range map[string]int{"active": 1, "reviewed": 1, "withdrawn": 1, "draft": 5} {
		var some []listedOp
		mustOps(t, &some, with("list", "--format", "json", "--state", state)...)
		if len(some) != want {
			t.Errorf("list --state %s: %d operations, want %d", state, len(some), want)
		}
	}

	// A serving mapd's report shows in show and in list's table.
	s, err := roadops.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Report(context.Background(), "andorra-2026-11-27", []roadops.Resolution{
		{ID: tunnel.ID, Resolved: true, Segments: 14}, {ID: area.ID, Resolved: false, Detail: "no road inside"}}); err != nil {
		t.Fatal(err)
	}
	for day, old := range []string{"andorra-2026-11-25", "andorra-2026-11-26"} {
		if err := s.Report(context.Background(), old, []roadops.Resolution{{ID: tunnel.ID, Resolved: true, Segments: 9,
			At: time.Date(2026, 11, 25+day, 0, 0, 0, 0, time.UTC)}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	var shown shownOp
	mustOps(t, &shown, with("show", tunnel.ID)...)
	if shown.Operation.ID != tunnel.ID || !shown.Active || len(shown.History) != 2 || shown.History[1].Who != "ben" ||
		len(shown.Resolutions) != 3 || shown.Resolutions[2].Segments != 14 {
		t.Errorf("show printed %+v", shown)
	}
	table := mustOps(t, nil, with("list")...)
	for _, want := range []string{"andorra-2026-11-27: ok (14 segments)", "andorra-2026-11-27: UNRESOLVED (no road inside)",
		"way 6176755 (1.7197,42.5401 to 1.7312,42.5449)", "time x2.5", "<= 20 km/h", "polygon of 5 points", "car,truck",
		"2026-11-28T08:00Z..2026-11-29T08:00Z"} {
		if !strings.Contains(table, want) {
			t.Errorf("list's table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "andorra-2026-11-25") {
		t.Errorf("list's table shows a data version older than the two reported last:\n%s", table)
	}
	if lines := strings.Count(table, "\n"); lines != 8 {
		t.Errorf("list's table has %d lines, want a header and 7 operations:\n%s", lines, table)
	}

	// list --format geojson imports back, into another ledger, as drafts.
	exported := filepath.Join(t.TempDir(), "exported.geojson")
	if err := os.WriteFile(exported, []byte(mustOps(t, nil, with("list", "--format", "geojson", "--state", "draft")...)), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.db")
	mustAdmin(t, "ledger", "init", "--ledger", other)
	var copied struct{ Imported int }
	mustOps(t, &copied, "import", exported, "--ledger", other, "--by", "ana")
	if copied.Imported != 5 {
		t.Errorf("the export of 5 drafts imported %d", copied.Imported)
	}

	var all, one []roadops.Change
	mustOps(t, &all, with("history")...)
	mustOps(t, &one, with("history", line.ID)...)
	if len(all) != 10 || len(one) != 3 || one[2].Action != "withdraw" || one[0].Who != "ana" {
		t.Errorf("history: %d changes in all, %d of the line (%+v)", len(all), len(one), one)
	}
}

func TestOperationsCommandsEmbedded(t *testing.T) {
	runOperationsScenario(t, filepath.Join(t.TempDir(), "ledger.db"))
}

func TestOperationsCommandsPostgres(t *testing.T) {
	runOperationsScenario(t, newAdminPostgresDSN(t))
}

func TestOperationsErrors(t *testing.T) {
	dir := t.TempDir()
	dsn := filepath.Join(dir, "ledger.db")
	mustAdmin(t, "ledger", "init", "--ledger", dsn)
	var op roadops.Operation
	mustOps(t, &op, "add", "--kind", "closure", "--way", "1", "--reason", "r", "--ledger", dsn)
	mustOps(t, nil, "withdraw", op.ID, "--ledger", dsn)
	bad := filepath.Join(dir, "bad.geojson")
	if err := os.WriteFile(bad, []byte(`{"type":"FeatureCollection","features":[
		{"type":"Feature","geometry":null,"properties":{"kind":"closure","way":1,"reason":"ok"}},
		{"type":"Feature","geometry":null,"properties":{"kind":"slowdown","way":1,"speed_kph":250,"reason":"r"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		errPart string
	}{
		{[]string{"add", "--way", "1", "--reason", "r"}, `"kind" not set`},
		{[]string{"add", "--kind", "closure", "--way", "1"}, `"reason" not set`},
		{[]string{"add", "--kind", "closed", "--way", "1", "--reason", "r"}, "kind"},
		{[]string{"add", "--kind", "closure", "--reason", "r"}, "give one of way, line or polygon"},
		{[]string{"add", "--kind", "closure", "--way", "1", "--line", "1,2;1.1,2", "--reason", "r"}, "give only one"},
		{[]string{"add", "--kind", "closure", "--way", "1", "--from", "1.5;42.5", "--to", "1.6,42.5", "--reason", "r"}, "--from"},
		{[]string{"add", "--kind", "closure", "--way", "1", "--from", "1.5,42.5", "--reason", "r"}, "from and to go together"},
		{[]string{"add", "--kind", "closure", "--way", "1", "--factor", "2", "--reason", "r"}, "factor"},
		{[]string{"add", "--kind", "slowdown", "--way", "1", "--factor", "2", "--speed-kph", "30", "--reason", "r"}, "not both"},
		{[]string{"add", "--kind", "slowdown", "--way", "1", "--speed-kph", "300", "--reason", "r"}, "speed_kph"},
		{[]string{"add", "--kind", "closure", "--way", "1", "--profiles", "car,bus", "--reason", "r"}, `"bus"`},
		{[]string{"add", "--kind", "closure", "--way", "1", "--valid-from", "tomorrow", "--reason", "r"}, "--valid-from"},
		{[]string{"add", "--kind", "closure", "--way", "1", "--valid-from", "2026-11-29T00:00:00Z", "--valid-until", "2026-11-28T00:00:00Z", "--reason", "r"}, "valid_until"},
		{[]string{"add", "--kind", "closure", "--line", "1,2", "--reason", "r"}, "line"},
		{[]string{"add", "--kind", "closure", "--polygon-file", filepath.Join(dir, "none.geojson"), "--reason", "r"}, "no such file"},
		{[]string{"add", "--kind", "closure", "--polygon-file", bad, "--reason", "r"}, "FeatureCollection has 2 features"},
		{[]string{"review", "op_nobody"}, "no such road operation"},
		{[]string{"review", op.ID}, "withdrawn"},
		{[]string{"withdraw"}, "accepts 1 arg"},
		{[]string{"show", "op_nobody"}, "no such road operation"},
		{[]string{"history", "op_nobody"}, "no such road operation"},
		{[]string{"list", "--format", "yaml"}, "--format"},
		{[]string{"list", "--state", "live"}, "--state"},
		{[]string{"import", bad}, "feature 1: invalid operation: speed_kph"},
		{[]string{"import", filepath.Join(dir, "none.geojson")}, "no such file"},
	}
	for _, tc := range tests {
		_, err := runOps(t, append(tc.args, "--ledger", dsn)...)
		if err == nil || !strings.Contains(err.Error(), tc.errPart) {
			t.Errorf("mapd operations %s: error %v, want one mentioning %q", strings.Join(tc.args, " "), err, tc.errPart)
		}
	}
	var listed []listedOp
	mustOps(t, &listed, "list", "--format", "json", "--ledger", dsn)
	if len(listed) != 1 {
		t.Errorf("after the refused commands %d operations, want the 1 added (a refused import adds nothing)", len(listed))
	}
}

// TestOperationsNeedALedger: a --ledger that names no ledger is refused as
// by the other admin commands, and no operations file appears.
func TestOperationsNeedALedger(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "ledger.db")
	mustAdmin(t, "ledger", "init", "--ledger", real)
	typo := filepath.Join(dir, "ledgr.db")
	for _, args := range [][]string{{"list"}, {"add", "--kind", "closure", "--way", "1", "--reason", "r"}, {"history"}} {
		_, err := runOps(t, append(args, "--ledger", typo)...)
		if err == nil || !strings.Contains(err.Error(), "did you mean --ledger "+real) {
			t.Errorf("mapd operations %s on a mistyped ledger: %v", args[0], err)
		}
	}
	if _, err := os.Stat(roadops.EmbeddedPath(typo)); err == nil {
		t.Error("an operations file appeared beside a ledger that does not exist")
	}
	_, err := runOps(t, "list", "--ledger", newAdminPostgresDSN(t))
	if err == nil || !strings.Contains(err.Error(), "holds no ledger tables") {
		t.Errorf("mapd operations list on an empty PostgreSQL schema: %v", err)
	}
}

// TestOperationsRecover: a damaged operations file stops the commands with
// the offset; operations recover gets past it, keeping the intact records.
func TestOperationsRecover(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "ledger.db")
	mustAdmin(t, "ledger", "init", "--ledger", dsn)
	for range 3 {
		mustOps(t, nil, "add", "--kind", "closure", "--way", "6176755", "--reason", "r", "--ledger", dsn, "--by", "ana")
	}
	path := roadops.EmbeddedPath(dsn)
	raw, _ := os.ReadFile(path)
	second := strings.Index(string(raw), "\n") + 1
	raw[second+40] ^= 0x02
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runOps(t, "list", "--ledger", dsn); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("list on a damaged file: %v", err)
	}
	var rep roadops.RecoverReport
	mustOps(t, &rep, "recover", "--ledger", dsn)
	if rep.Kept != 3 || len(rep.Damaged) != 1 {
		t.Errorf("recover printed %+v, want 3 records kept and one damaged range", rep)
	}
	var listed []listedOp
	mustOps(t, &listed, "list", "--format", "json", "--ledger", dsn)
	if len(listed) != 2 {
		t.Errorf("after recover: %d operations, want the 2 intact", len(listed))
	}
	if _, err := runOps(t, "recover", "--ledger", newAdminPostgresDSN(t)); err == nil || !strings.Contains(err.Error(), "embedded") {
		t.Errorf("recover on PostgreSQL: %v", err)
	}
}
