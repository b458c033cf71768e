package api

import (
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/serving"
)

// counter returns the value of the named counter with the given labels.
func counter(t *testing.T, m *Metrics, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	next:
		for _, metric := range f.GetMetric() {
			for _, l := range metric.GetLabel() {
				if labels[l.GetName()] != l.GetValue() {
					continue next
				}
			}
			if metric.GetCounter() != nil {
				return metric.GetCounter().GetValue()
			}
			return metric.GetGauge().GetValue()
		}
	}
	return 0
}

// Credits come from the user value compute.go sets; a 429 is a rate-limit
// rejection whatever the operation.
func TestMetricsCreditsAndRateLimits(t *testing.T) {
	holder := fakeHolder("car")
	m := NewMetrics(holder)
	s, _ := New(Config{Releases: holder, Metrics: m})
	charged := &fasthttp.RequestCtx{}
	charged.SetUserValue(UserCreditsCharged, int64(3))
	s.observe(charged, "matrix", time.Millisecond)
	limited := &fasthttp.RequestCtx{}
	limited.Response.SetStatusCode(429)
	s.observe(limited, "directions", time.Millisecond)
	strange := &fasthttp.RequestCtx{}
	strange.SetUserValue(UserCreditsCharged, "3") // not an int64: ignored, not a panic
	s.observe(strange, "matrix", time.Millisecond)

	if got := counter(t, m, "mapd_credits_charged_total", map[string]string{"operation": "matrix"}); got != 3 {
		t.Errorf("credits %v, want 3", got)
	}
	if got := counter(t, m, "mapd_rate_limited_total", map[string]string{"operation": "directions"}); got != 1 {
		t.Errorf("rate limited %v, want 1", got)
	}
	if got := counter(t, m, "mapd_requests_total", map[string]string{"operation": "matrix", "status": "200"}); got != 2 {
		t.Errorf("matrix 200s %v, want 2", got)
	}
	m.ReleaseSwap(serving.SwapRefused)
	if got := counter(t, m, "mapd_release_swaps_total", map[string]string{"outcome": "refused"}); got != 1 {
		t.Errorf("refused swaps %v", got)
	}
	if got := counter(t, m, "mapd_data_version_info", map[string]string{"data_version": "2026-11-22"}); got != 1 {
		t.Errorf("data_version_info %v", got)
	}
}
