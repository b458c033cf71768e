package compare

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
)

// Road shades of the map's background.
var roadPalette = color.Palette{
	color.RGBA{0xfb, 0xfa, 0xf7, 0xff}, // land
	color.RGBA{0xc4, 0xc4, 0xc4, 0xff}, // minor roads
	color.RGBA{0x8a, 0x8a, 0x8a, 0xff}, // major roads
}

// drawRoads paints every segment of net inside v, major roads darker and
// wider, and encodes the picture as a PNG.
func drawRoads(ctx context.Context, net *graph.Network, v view) ([]byte, error) {
	img := image.NewPaletted(image.Rect(0, 0, v.w, v.h), roadPalette)
	major := make([]bool, len(net.Classes))
	for i, c := range net.Classes {
		major[i] = isMajor(c)
	}
	for pass := range 2 { // minor roads first, so major ones stay on top
		for s := range uint32(net.NumSegments()) {
			if s%(1<<16) == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if major[net.SegClass[s]] != (pass == 1) {
				continue
			}
			paintSegment(img, net, v, s, uint8(1+pass), 1+pass)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func isMajor(class string) bool {
	for _, m := range []string{"motorway", "trunk", "primary", "secondary"} {
		if strings.HasPrefix(class, m) {
			return true
		}
	}
	return false
}

// paintSegment draws s's pieces that touch the picture.
func paintSegment(img *image.Paletted, net *graph.Network, v view, s uint32, shade uint8, width int) {
	begin, end := net.Points(s)
	w, h := float64(v.w), float64(v.h)
	for i := begin + 1; i < end; i++ {
		aLon, aLat := net.Point(i - 1)
		bLon, bLat := net.Point(i)
		x0, y0 := v.px([2]float64{aLon, aLat})
		x1, y1 := v.px([2]float64{bLon, bLat})
		if max(x0, x1) < 0 || min(x0, x1) >= w || max(y0, y1) < 0 || min(y0, y1) >= h {
			continue
		}
		paintLine(img, x0, y0, x1, y1, shade, width)
	}
}

// paintLine steps along a line one pixel at a time, painting a width ×
// width square at each step (clipped to the picture).
func paintLine(img *image.Paletted, x0, y0, x1, y1 float64, shade uint8, width int) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for k := 0; k <= n; k++ {
		t := float64(k) / float64(n)
		x, y := int(x0+(x1-x0)*t), int(y0+(y1-y0)*t)
		for d := range width * width {
			if p := (image.Point{X: x + d%width, Y: y + d/width}); p.In(img.Rect) {
				img.Pix[img.PixOffset(p.X, p.Y)] = shade
			}
		}
	}
}
