package compare

import (
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/route"
)

//go:embed report.html.tmpl
var reportTemplate string

var htmlReport = template.Must(template.New("report").Funcs(template.FuncMap{
	"coord": coord, "trip": tripText, "num": func(v Num) string { return fmt.Sprintf("%.3f", float64(v)) },
	"ptr": func(v *Num) string {
		if v == nil {
			return "–"
		}
		return fmt.Sprintf("%.3f", float64(*v))
	},
	"count": count,
}).Parse(reportTemplate))

// WriteHTML writes the report as one self-contained page: the verdict,
// the thresholds crossed, a map of the worst route changes (when Run was
// given Options.Map), and every table of the JSON report. It loads
// nothing from elsewhere, so it can be archived or mailed as it is.
func WriteHTML(w io.Writer, r *Report) error {
	return htmlReport.Execute(w, htmlPage{Report: r, Map: svgMap(r.picture)})
}

type htmlPage struct {
	*Report
	Map *svgPicture
}

// svgPicture is the map as the template draws it: pixel coordinates ready
// for SVG, the roads as a data URL.
type svgPicture struct {
	W, H   int
	Roads  template.URL
	Routes []svgRoute
	Scale  string // a scale bar's label
	ScaleW float64
}

type svgRoute struct {
	N        int
	Label    string
	Old, New string // SVG points, "" for no route
	FromX    float64
	FromY    float64
	ToX, ToY float64
}

func svgMap(p *picture) *svgPicture {
	if p == nil {
		return nil
	}
	s := &svgPicture{W: p.view.w, H: p.view.h,
		Roads: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(p.png))}
	for _, m := range p.routes {
		r := svgRoute{N: m.N, Label: landmarkName(m.Change) + describe(m.Change),
			Old: svgPoints(p.view, m.Old), New: svgPoints(p.view, m.New)}
		r.FromX, r.FromY = p.view.px(m.Change.From)
		r.ToX, r.ToY = p.view.px(m.Change.To)
		s.Routes = append(s.Routes, r)
	}
	s.Scale, s.ScaleW = scaleBar(p.view)
	return s
}

// svgPoints writes a shape in pixels, dropping points within half a pixel
// of the last one kept: a 30 km route has thousands of points and the
// picture shows a few hundred.
func svgPoints(v view, pts []route.Point) string {
	var b strings.Builder
	lastX, lastY := -1e9, -1e9
	for i, p := range pts {
		x, y := v.px(p)
		if i != len(pts)-1 && (x-lastX)*(x-lastX)+(y-lastY)*(y-lastY) < 0.25 {
			continue
		}
		fmt.Fprintf(&b, "%.1f,%.1f ", x, y)
		lastX, lastY = x, y
	}
	return strings.TrimSpace(b.String())
}

// scaleBar picks a round distance about a fifth of the map's width.
func scaleBar(v view) (string, float64) {
	metresPerPixel := geo.MetresPerDegreeLat / v.sy // sy is pixels per degree of latitude
	target := float64(v.w) / 5 * metresPerPixel
	step := 1.0
	for _, s := range []float64{1, 2, 5} {
		for m := 1.0; m <= 1e7; m *= 10 {
			if s*m <= target {
				step = max(step, s*m)
			}
		}
	}
	label := fmt.Sprintf("%g m", step)
	if step >= 1000 {
		label = fmt.Sprintf("%g km", step/1000)
	}
	return label, step / metresPerPixel
}

func tripText(t *Trip, why string) string {
	if t == nil {
		if why == "" {
			return "–"
		}
		return "no route (" + why + ")"
	}
	return fmt.Sprintf("%.0f s, %.0f m", float64(t.DurationS), float64(t.DistanceM))
}
