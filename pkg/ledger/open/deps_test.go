package open_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStoresStayApart: the contract imports no store, neither store (nor
// its tests) imports the other, and only package open knows both, as
// database/sql knows no driver and drivers know no other driver.
func TestStoresStayApart(t *testing.T) {
	const ledger = "github.com/mapsco/maps/pkg/ledger"
	embedded, postgres, open := ledger+"/embedded", ledger+"/postgres", ledger+"/open"
	for _, c := range []struct {
		pkg    string
		banned []string
	}{
		{ledger, []string{embedded, postgres, open, ledger + "/internal/shared"}},
		{ledger + "/internal/shared", []string{embedded, postgres, open}},
		{ledger + "/ledgertest", []string{embedded, postgres, open}},
		{embedded, []string{postgres, open}},
		{postgres, []string{embedded, open}},
	} {
		out, err := exec.Command("go", "list", "-deps", "-test", c.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", c.pkg, err, out)
		}
		deps := strings.Fields(string(out))
		for _, d := range deps {
			for _, b := range c.banned {
				if d == b {
					t.Errorf("%s (or its tests) imports %s", c.pkg, b)
				}
			}
		}
	}
}
