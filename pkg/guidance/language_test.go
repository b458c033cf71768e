package guidance_test

import (
	"testing"

	"github.com/mapsco/maps/pkg/guidance"
)

// TestLanguage: a BCP 47 tag names one of the languages by its primary
// subtag, in any case; anything else names none.
func TestLanguage(t *testing.T) {
	for tag, want := range map[string]string{"en": "en", "ca": "ca", "es": "es", "fr": "fr", "FR": "fr", "fr-CA": "fr",
		"ca-AD": "ca", "es-419": "es", " en ": "en", "de": "", "": "", "english": "", "e": "", "en_US": "", "*": ""} {
		got, ok := guidance.Language(tag)
		if got != want || ok != (want != "") {
			t.Errorf("Language(%q) = %q, %v; want %q", tag, got, ok, want)
		}
	}
}
