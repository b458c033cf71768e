package api

import (
	"strings"
	"testing"
	"time"
)

func TestParseDeprecation(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	cases := []struct {
		flag                     string
		path, deprecated, sunset string
		err                      string
	}{
		{"/v1/elevation=2027-12-01", "/v1/elevation", "2026-12-01", "2027-12-01", ""},
		{"/v1/elevation=2026-11-15/2027-12-01", "/v1/elevation", "2026-11-15", "2027-12-01", ""},
		{"/v1/elevation", "", "", "", "want /v1/PATH"},
		{"/v2/x=2027-12-01", "", "", "", "want /v1/PATH"},
		{"/v1/elevation=Dec 2027", "", "", "", "cannot parse"},
		{"/v1/elevation=2027-12-01/2026-01-01", "", "", "", "must come after"},
		{"/v1/elevation=2027-12-01/x", "", "", "", "cannot parse"},
	}
	for _, c := range cases {
		d, err := ParseDeprecation(c.flag)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.flag, err, c.err)
			}
			continue
		}
		if err != nil || d.Path != c.path || !d.Deprecated.Equal(day(c.deprecated)) || !d.Sunset.Equal(day(c.sunset)) {
			t.Errorf("%s: %+v %v", c.flag, d, err)
		}
	}
}

// The attribution is on every answer, and a deprecated path's headers on
// all of its answers (problems too) and on no other path.
func TestHeadersOnEveryAnswer(t *testing.T) {
	d, _ := ParseDeprecation("/v1/status=2027-06-01")
	s, err := New(Config{Releases: fakeHolder("car"), Deprecations: []Deprecation{d}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, path string
		deprecated   bool
	}{
		{"GET", PathStatus, true}, {"POST", PathStatus, true}, {"GET", PathLive, false},
		{"GET", "/v1/teleport", false}, {"GET", "/v1/directions", false},
	} {
		h := &get(s, c.method, c.path).Response.Header
		if got := string(h.Peek(AttributionHeader)); got != "\xa9 OpenStreetMap contributors, ODbL" {
			t.Errorf("%s %s: %s %q", c.method, c.path, AttributionHeader, got)
		}
		sunset, dep := string(h.Peek("Sunset")), string(h.Peek("Deprecation"))
		if c.deprecated != (sunset == "Tue, 01 Jun 2027 00:00:00 GMT" && dep == "@1780272000") || (!c.deprecated && sunset+dep != "") {
			t.Errorf("%s %s: Sunset %q, Deprecation %q", c.method, c.path, sunset, dep)
		}
	}
	if _, err := New(Config{Releases: fakeHolder("car"), Deprecations: []Deprecation{{Path: "/v1/teleport"}}}); err == nil {
		t.Error("a deprecation of no endpoint was accepted")
	}
}
