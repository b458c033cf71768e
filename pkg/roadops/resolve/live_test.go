package resolve_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/roadops/resolve"
	"github.com/mapsco/maps/pkg/serving"
)

// TestLiveAcrossReleases: operations follow the release that serves. A
// closure of the tunnel resolves on today's release; tomorrow's release no
// longer has the way (a mapper deleted it), and on the swap the closure is
// reported unresolved there, per data_version, and applied to nothing,
// while a closure by a line still resolves.
func TestLiveAcrossReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles an edited Andorra; the full run covers it")
	}
	ctx := context.Background()
	today := compiletest.OpenAndorra(t)
	dir := compiletest.EditedAndorraRelease(t, t.TempDir(), "tomorrow", compiletest.Edit{Remove: []int64{envalira}})
	tomorrow, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tomorrow.Close()
	store, err := roadops.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	byWay, err := store.Add(ctx, roadops.Operation{Kind: roadops.KindClosure, Way: envalira, Reason: "accident"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	byLine, err := store.Add(ctx, roadops.Operation{Kind: roadops.KindSlowdown, Factor: 2, Reason: "works",
		Line: [][2]float64{{1.5218, 42.5063}, {1.5235, 42.5072}}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{byWay.ID, byLine.ID} {
		if _, err := store.Review(ctx, id, "test"); err != nil {
			t.Fatal(err)
		}
	}
	ops, err := store.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live := resolve.NewLive(store, nil)
	live.Publish(ops)
	live.Ready(today)
	var told []resolve.Applied // what mapd's metric mapd_road_operations is set from
	live.SetReporter(func(a resolve.Applied) { told = append(told, a) })
	live.Ready(tomorrow) // the swap
	todayV, tomorrowV := today.Manifest.DataVersion, tomorrow.Manifest.DataVersion
	want := []resolve.Applied{{DataVersion: todayV, Applied: 2}, {DataVersion: tomorrowV, Applied: 1, Unresolved: 1}}
	if !slices.Equal(told, want) {
		t.Errorf("reported %+v, want %+v (the last resolution at once, then the swap's)", told, want)
	}
	rs, err := store.Resolutions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]roadops.Resolution{}
	for _, r := range rs {
		got[r.ID+"@"+r.DataVersion] = r
		t.Logf("%s on %s: resolved %v, %d segments, %s", r.ID, r.DataVersion, r.Resolved, r.Segments, r.Detail)
	}
	if r := got[byWay.ID+"@"+todayV]; !r.Resolved {
		t.Errorf("the tunnel's closure on today's release: %+v", r)
	}
	if r := got[byWay.ID+"@"+tomorrowV]; r.Resolved || r.Detail == "" {
		t.Errorf("the tunnel's closure on a release without the tunnel: %+v, want unresolved with a reason", r)
	}
	if r := got[byLine.ID+"@"+tomorrowV]; !r.Resolved {
		t.Errorf("the slowdown by a line on tomorrow's release: %+v", r)
	}
	for _, op := range tomorrow.Routers["car"].Operations() {
		if op.ID == byWay.ID {
			t.Errorf("the unresolved closure is applied on tomorrow's release: %+v", op)
		}
	}
}
