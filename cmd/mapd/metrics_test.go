package main

import (
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// TestMetricsMove scrapes --metrics-listen before and after a known load and
// checks that each counter moved by exactly that load.
func TestMetricsMove(t *testing.T) {
	s := launchMapd(t, "--data", compiletest.Andorra(t))
	before := scrape(t, s.metricsBase)
	for range 5 {
		if r := s.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`}`); r.status != 200 {
			t.Fatalf("directions: %d %s", r.status, r.raw)
		}
	}
	if r := s.post(t, "/v1/directions", `{"coordinates":[[1.5218,42.5063]]}`); r.status != 400 {
		t.Fatalf("one waypoint: %d %s", r.status, r.raw)
	}
	s.do(t, "GET", "/v1/teleport", "", "")
	s.do(t, "GET", "/v1/health/live", "", "")
	after := scrape(t, s.metricsBase)

	moved := map[string]float64{
		`mapd_requests_total{operation="directions",status="200"}`:    5,
		`mapd_requests_total{operation="directions",status="400"}`:    1,
		`mapd_requests_total{operation="unknown",status="404"}`:       1,
		`mapd_requests_total{operation="live",status="200"}`:          1,
		`mapd_request_duration_seconds_count{operation="directions"}`: 6,
		`mapd_release_swaps_total{outcome="ok"}`:                      0,
	}
	if s.key != "" { // metered: every directions answer charges 1 credit
		moved[`mapd_credits_charged_total{operation="directions"}`] = 5
	}
	for name, want := range moved {
		if got := after[name] - before[name]; got != want {
			t.Errorf("%s moved by %v, want %v", name, got, want)
		}
	}
	if after[`mapd_data_version_info{data_version="test1"}`] != 1 {
		t.Errorf("no mapd_data_version_info for test1")
	}
	if after[`mapd_request_duration_seconds_sum{operation="directions"}`] <= before[`mapd_request_duration_seconds_sum{operation="directions"}`] {
		t.Errorf("directions latency sum did not grow")
	}
	if after["go_goroutines"] == 0 || after["process_resident_memory_bytes"] == 0 {
		t.Errorf("runtime and process collectors missing")
	}
}
