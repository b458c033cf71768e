package api

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/profile"
)

// The API's profiles are the ones mapc compiles, in the same order: a
// compiled profile the decoder refused could never be asked for, and one it
// accepted that no release has would answer an error for a valid request.
// The decoder's own list (in its error message) and its switch follow.
func TestProfilesAreTheCompilers(t *testing.T) {
	want := profile.Names()
	if got := Profiles(); !slices.Equal(got, want) {
		t.Fatalf("api.Profiles() = %v, profile.Names() = %v", got, want)
	}
	for _, name := range want {
		req, inv := DecodeDirections(fmt.Appendf(nil, `{"coordinates":[[1.52,42.5],[1.53,42.51]],"profile":%q}`, name))
		if inv != nil || req.Profile != name {
			t.Errorf("profile %q decoded as %q, %+v", name, req.Profile, inv)
		}
	}
	_, inv := DecodeDirections([]byte(`{"coordinates":[[1.52,42.5],[1.53,42.51]],"profile":"bus"}`))
	if inv == nil || len(inv.Errors) != 1 || !strings.Contains(inv.Errors[0].Message, strings.Join(want, ", ")) {
		t.Errorf("an unknown profile's error does not list %v: %+v", want, inv)
	}
}
