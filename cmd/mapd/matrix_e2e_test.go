package main

import (
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

func TestMatrixEndToEnd(t *testing.T) {
	s := startMapd(t, "--data", compiletest.Andorra(t))
	r := s.post(t, "/v1/matrix", `{"sources":[[1.5218,42.5063],[1.7333,42.5425]],"targets":[[1.7333,42.5425],[3.5,42.0],[1.5218,42.5063]]}`)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.raw)
	}
	if r.body["profile"] != "car" || r.body["data_version"] != "test1" {
		t.Errorf("envelope: %s", r.raw)
	}
	d := r.body["durations"].([]any)
	m := r.body["distances"].([]any)
	if len(d) != 2 || len(d[0].([]any)) != 3 || len(m) != 2 {
		t.Fatalf("shape: %s", r.raw)
	}
	// The point at sea is a null column; the request still succeeds.
	if d[0].([]any)[1] != nil || m[1].([]any)[1] != nil {
		t.Errorf("unroutable pair is not null: %s", r.raw)
	}
	// The matrix agrees with directions for the same pair.
	dir := s.post(t, "/v1/directions", `{"coordinates":[[1.5218,42.5063],[1.7333,42.5425]]}`)
	want := dir.body["routes"].([]any)[0].(map[string]any)["summary"].(map[string]any)["duration_s"].(float64)
	if got := d[0].([]any)[0].(float64); abs(got-want) > 0.001 {
		t.Errorf("matrix %.3f s, directions %.3f s", got, want)
	}
	if d[0].([]any)[2].(float64) != 0 || d[1].([]any)[0].(float64) != 0 {
		t.Errorf("a point to itself is not 0: %s", r.raw)
	}

	many := `{"sources":[` + strings.Repeat(`[1.52,42.5],`, 100) + `[1.52,42.5]],"targets":[[1.52,42.5]]}`
	cases := []struct{ name, body, field string }{
		{"101 sources", many, "/sources"},
		{"no targets", `{"sources":[[1.52,42.5]],"targets":[]}`, "/targets"},
		{"bad profile", `{"sources":[[1.52,42.5]],"targets":[[1.52,42.5]],"profile":"boat"}`, "/profile"},
		{"longitude out of range", `{"sources":[[181,42.5]],"targets":[[1.52,42.5]]}`, "/sources/0/0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.post(t, "/v1/matrix", c.body)
			if r.status != 400 {
				t.Fatalf("status %d: %s", r.status, r.raw)
			}
			checkProblem(t, r, "invalid-request", c.field)
		})
	}
}
