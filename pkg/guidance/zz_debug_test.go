package guidance_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
)

func TestZZDebugAngles(t *testing.T) {
	at := os.Getenv("AT")
	if at == "" {
		t.Skip()
	}
	g := openAndorra(t).Routers["car"].Graph()
	net := g.Net
	for _, p := range strings.Split(at, " ") {
		xy := strings.Split(p, ",")
		lon, _ := strconv.ParseFloat(xy[0], 64)
		lat, _ := strconv.ParseFloat(xy[1], 64)
		for v := uint32(0); v < uint32(net.NumNodes()); v++ {
			x, y := net.Node(v)
			if geo.Distance(x, y, lon, lat) > 2 {
				continue
			}
			fmt.Printf("node %d at %s\n", v, p)
			// arcs in: find arcs whose head is v
			b, e := g.Fwd.Out(v)
			for a := b; a < e; a++ {
				out := g.ArcSegRef(a)
				s, _ := g.ArcSegment(a)
				fmt.Printf("  out seg %d %s %q %q: first %.0f perceived %.0f\n", s, net.Class(s), net.Name(s), net.Ref(s), 90-net.Heading(out, true), 90-g.PerceivedHeading(out))
				// reversed: arriving along this segment
				in := out ^ 1
				fmt.Printf("     arriving: first %.0f perceived %.0f\n", 90-net.Heading(in, false), 90-g.PerceivedHeading(in^1)+180)
			}
		}
	}
}
