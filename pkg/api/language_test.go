package api

import "testing"

// TestAcceptLanguage: the supported language of highest weight, the
// earlier on a tie; English when none is supported or the header is
// unreadable.
func TestAcceptLanguage(t *testing.T) {
	for header, want := range map[string]string{
		"":                                    "en",
		"ca":                                  "ca",
		"fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7": "fr",
		"de-DE,de;q=0.9,es;q=0.5,ca;q=0.6":    "ca",
		"de, it":                              "en",
		"*":                                   "en",
		"en;q=0.2, es;q=0.2":                  "en",
		"es;q=0, fr;q=0.1":                    "fr",
		"ca;q=x, es":                          "es",
		"ca;q=2, fr;q=0.5":                    "fr",
		" ES-419 ;q=0.8":                      "es",
		",,;;,":                               "en",
	} {
		if got := acceptLanguage([]byte(header)); got != want {
			t.Errorf("Accept-Language %q: %q, want %q", header, got, want)
		}
	}
}
