package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mapsco/maps/pkg/serving"
)

// Metrics are mapd's Prometheus metrics, in a registry of their own (never
// the process-wide default), served by Handler on a separate address so that
// scrapes never compete with the API for its listener. Safe for concurrent use.
//
//	mapd_requests_total{operation,status}        requests answered
//	mapd_request_duration_seconds{operation}     latency histogram
//	mapd_credits_charged_total{operation}        credits deducted
//	mapd_rate_limited_total{operation}           requests refused with 429
//	mapd_release_swaps_total{outcome}            swap attempts: ok, refused
//	mapd_data_version_info{data_version}         1 for the release being served
//	mapd_release_build_timestamp_seconds         when that release was compiled
//	mapd_road_operations{state}                  reviewed road operations on the release
//	                                             being served: applied, unresolved
//
// plus the Go runtime and process collectors.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	credits     *prometheus.CounterVec
	rateLimited *prometheus.CounterVec
	swaps       *prometheus.CounterVec
	roadOps     *prometheus.GaugeVec
}

// latencyBuckets span a cached directions answer (~0.5 ms) to the request
// deadline (10 s).
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// NewMetrics makes the metrics; releases supplies the data version gauges at
// each scrape.
func NewMetrics(releases *serving.Holder) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mapd_requests_total", Help: "Requests answered, by operation and HTTP status.",
		}, []string{"operation", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mapd_request_duration_seconds", Help: "Time from routing a request to its answer being ready, by operation.",
			Buckets: latencyBuckets,
		}, []string{"operation"}),
		credits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mapd_credits_charged_total", Help: "Credits deducted, by operation.",
		}, []string{"operation"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mapd_rate_limited_total", Help: "Requests refused by a rate limit (429), by operation.",
		}, []string{"operation"}),
		swaps: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mapd_release_swaps_total", Help: "Attempts to serve a new release, by outcome (ok, refused).",
		}, []string{"outcome"}),
		roadOps: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mapd_road_operations",
			Help: "Reviewed road operations on the release being served, by state: applied, or unresolved (no longer placed on this release's roads, so not applied; alert on it).",
		}, []string{"state"}),
	}
	m.RoadOperations(0, 0)
	for _, o := range []string{serving.SwapOK, serving.SwapRefused} {
		m.swaps.WithLabelValues(o) // present at 0 from the first scrape, so rate() and alerts work
	}
	m.reg.MustRegister(m.requests, m.latency, m.credits, m.rateLimited, m.swaps, m.roadOps,
		releaseCollector{releases},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ReleaseSwap counts one swap attempt by outcome (serving.SwapOK or
// serving.SwapRefused).
func (m *Metrics) ReleaseSwap(outcome string) { m.swaps.WithLabelValues(outcome).Inc() }

// RoadOperations sets how many reviewed road operations are applied to the
// release being served and how many do not resolve on it.
func (m *Metrics) RoadOperations(applied, unresolved int) {
	m.roadOps.WithLabelValues("applied").Set(float64(applied))
	m.roadOps.WithLabelValues("unresolved").Set(float64(unresolved))
}

// observe counts one answered request.
func (m *Metrics) observe(operation string, status int, took time.Duration, credits int64) {
	m.requests.WithLabelValues(operation, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(operation).Observe(took.Seconds())
	if credits > 0 {
		m.credits.WithLabelValues(operation).Add(float64(credits))
	}
	if status == http.StatusTooManyRequests {
		m.rateLimited.WithLabelValues(operation).Inc()
	}
}

// releaseCollector reads the served release at scrape time, so the gauges
// can never disagree with what answers requests.
type releaseCollector struct{ releases *serving.Holder }

var (
	dataVersionDesc = prometheus.NewDesc("mapd_data_version_info",
		"The data release being served (value 1), by data_version.", []string{"data_version"}, nil)
	buildTimeDesc = prometheus.NewDesc("mapd_release_build_timestamp_seconds",
		"When the release being served was compiled, Unix seconds.", nil, nil)
)

func (c releaseCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- dataVersionDesc
	ch <- buildTimeDesc
}

func (c releaseCollector) Collect(ch chan<- prometheus.Metric) {
	rel, done := c.releases.Acquire()
	m := rel.Manifest
	done()
	ch <- prometheus.MustNewConstMetric(dataVersionDesc, prometheus.GaugeValue, 1, m.DataVersion)
	ch <- prometheus.MustNewConstMetric(buildTimeDesc, prometheus.GaugeValue, float64(m.BuildTime.Unix()))
}
