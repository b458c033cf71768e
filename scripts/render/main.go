// Command render draws isochrones over the road network to a PNG, so that
// a person can judge their shape: roads the profile may use in grey, each
// contour filled with a translucent colour (smallest budget darkest) and
// outlined, the origin as a black dot.
//
//	go run ./scripts/render --data releases/2026-11-22 --origin 1.5218,42.5063 \
//	    --profile car --minutes 10,20,30 --out iso.png
//
// It calls package isochrone directly on a compiled release, exactly as
// mapd does for POST /v1/isochrone; scripts/render-isochrone wraps it.
package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/mapsco/maps/pkg/isochrone"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}

type config struct {
	data, profile, out string
	origin             route.Point
	budgets            []isochrone.Budget
	width              int
}

func parseFlags() (config, error) {
	var c config
	var origin, minutes, km string
	flag.StringVar(&c.data, "data", "", "release directory (holding manifest.json)")
	flag.StringVar(&origin, "origin", "1.5218,42.5063", "origin lon,lat")
	flag.StringVar(&c.profile, "profile", "car", "profile")
	flag.StringVar(&minutes, "minutes", "10,20,30", "time budgets, comma-separated")
	flag.StringVar(&km, "km", "", "distance budgets, comma-separated")
	flag.StringVar(&c.out, "out", "isochrone.png", "PNG to write")
	flag.IntVar(&c.width, "width", 1400, "image width in pixels")
	flag.Parse()
	if c.data == "" {
		return c, fmt.Errorf("--data is required")
	}
	o, err := numbers(origin)
	if err != nil || len(o) != 2 {
		return c, fmt.Errorf("--origin %q: want lon,lat", origin)
	}
	c.origin = route.Point{o[0], o[1]}
	for unit, list := range map[isochrone.Unit]string{isochrone.Minutes: minutes, isochrone.Kilometers: km} {
		vs, err := numbers(list)
		if err != nil {
			return c, err
		}
		for _, v := range vs {
			c.budgets = append(c.budgets, isochrone.Budget{Value: v, Unit: unit})
		}
	}
	return c, nil
}

func numbers(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func run() error {
	c, err := parseFlags()
	if err != nil {
		return err
	}
	rel, err := serving.Open(c.data)
	if err != nil {
		return err
	}
	defer rel.Close()
	router, ok := rel.Routers[c.profile]
	if !ok {
		return fmt.Errorf("profile %q not in release", c.profile)
	}
	snapped, err := router.Snap([]route.Point{c.origin})
	if err != nil {
		return err
	}
	var e isochrone.Engine
	contours, err := e.Compute(context.Background(), router.Graph(), snapped[0], isochrone.Request{Budgets: c.budgets})
	if err != nil {
		return err
	}
	img := draw(router, contours, c.origin, c.width)
	f, err := os.Create(c.out)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// view maps degrees to pixels over the largest contour's box plus 10%.
type view struct {
	minLon, maxLat, scaleX, scaleY float64
	w, h                           int
}

func newView(contours []isochrone.Contour, width int) view {
	minLon, minLat := math.Inf(1), math.Inf(1)
	maxLon, maxLat := math.Inf(-1), math.Inf(-1)
	for _, c := range contours {
		for _, p := range c.Polygons {
			for _, q := range p[0] {
				minLon, maxLon = min(minLon, q[0]), max(maxLon, q[0])
				minLat, maxLat = min(minLat, q[1]), max(maxLat, q[1])
			}
		}
	}
	mx, my := (maxLon-minLon)*0.1, (maxLat-minLat)*0.1
	minLon, maxLon, minLat, maxLat = minLon-mx, maxLon+mx, minLat-my, maxLat+my
	k := math.Cos((minLat + maxLat) / 2 * math.Pi / 180)
	sx := float64(width) / (maxLon - minLon)
	h := int((maxLat - minLat) * sx / k)
	return view{minLon: minLon, maxLat: maxLat, scaleX: sx, scaleY: sx / k, w: width, h: h}
}

func (v view) px(p isochrone.Point) (float64, float64) {
	return (p[0] - v.minLon) * v.scaleX, (v.maxLat - p[1]) * v.scaleY
}

var palette = []color.NRGBA{{0, 104, 55, 255}, {49, 163, 84, 255}, {120, 198, 121, 255}, {194, 230, 153, 255}}

func draw(router *route.Router, contours []isochrone.Contour, origin route.Point, width int) *image.NRGBA {
	v := newView(contours, width)
	img := image.NewNRGBA(image.Rect(0, 0, v.w, v.h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for i := len(contours) - 1; i >= 0; i-- {
		col := palette[min(i, len(palette)-1)]
		col.A = 110
		fill(img, v, contours[i].Polygons, col)
	}
	drawRoads(img, v, router)
	for i, c := range contours {
		col := palette[min(i, len(palette)-1)]
		col.R, col.G, col.B = col.R/2, col.G/2, col.B/2
		for _, p := range c.Polygons {
			for _, r := range p {
				for k := 1; k < len(r); k++ {
					x0, y0 := v.px(r[k-1])
					x1, y1 := v.px(r[k])
					line(img, x0, y0, x1, y1, col, 2)
				}
			}
		}
	}
	ox, oy := v.px(isochrone.Point(origin))
	for dy := -5; dy <= 5; dy++ {
		for dx := -5; dx <= 5; dx++ {
			if dx*dx+dy*dy <= 25 {
				blend(img, int(ox)+dx, int(oy)+dy, color.NRGBA{0, 0, 0, 255})
			}
		}
	}
	return img
}

func drawRoads(img *image.NRGBA, v view, router *route.Router) {
	g := router.Graph()
	net := g.Net
	grey := color.NRGBA{90, 90, 90, 200}
	for s := range uint32(net.NumSegments()) {
		if !g.Usable(s) {
			continue
		}
		begin, end := net.Points(s)
		for i := begin + 1; i < end; i++ {
			aLon, aLat := net.Point(i - 1)
			bLon, bLat := net.Point(i)
			x0, y0 := v.px(isochrone.Point{aLon, aLat})
			x1, y1 := v.px(isochrone.Point{bLon, bLat})
			line(img, x0, y0, x1, y1, grey, 1)
		}
	}
}

// fill paints polygons with the even-odd rule, one scanline per pixel row.
func fill(img *image.NRGBA, v view, polys []isochrone.Polygon, col color.NRGBA) {
	var xs []float64
	for y := 0; y < v.h; y++ {
		fy := float64(y) + 0.5
		xs = xs[:0]
		for _, p := range polys {
			for _, r := range p {
				for k := 1; k < len(r); k++ {
					x0, y0 := v.px(r[k-1])
					x1, y1 := v.px(r[k])
					if (y0 <= fy) != (y1 <= fy) {
						xs = append(xs, x0+(fy-y0)/(y1-y0)*(x1-x0))
					}
				}
			}
		}
		sortFloats(xs)
		for k := 0; k+1 < len(xs); k += 2 {
			for x := int(math.Ceil(xs[k] - 0.5)); float64(x)+0.5 <= xs[k+1]; x++ {
				blend(img, x, y, col)
			}
		}
	}
}

func sortFloats(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// line draws a segment of the given width by stepping along it.
func line(img *image.NRGBA, x0, y0, x1, y1 float64, col color.NRGBA, width int) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for s := 0; s <= n; s++ {
		t := float64(s) / float64(n)
		x, y := int(x0+(x1-x0)*t), int(y0+(y1-y0)*t)
		for d := 0; d < width*width; d++ {
			img.SetNRGBA(x+d%width, y+d/width, col)
		}
	}
}

// blend paints col over the pixel at its alpha.
func blend(img *image.NRGBA, x, y int, col color.NRGBA) {
	if !(image.Point{x, y}.In(img.Rect)) {
		return
	}
	i := img.PixOffset(x, y)
	a := float64(col.A) / 255
	for k, c := range [3]uint8{col.R, col.G, col.B} {
		img.Pix[i+k] = uint8(float64(img.Pix[i+k])*(1-a) + float64(c)*a)
	}
}
