package graph

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mapsco/maps/pkg/artifact"
)

// Section names. Shared arrays live under "net.", a profile's under its name.
const (
	secNodeCoord = "net.node_coord" // int32 pairs
	secSegFrom   = "net.seg_from"   // uint32
	secSegTo     = "net.seg_to"     // uint32
	secSegGeom   = "net.seg_geom"   // uint32, segments + 1
	secGeom      = "net.geom"       // int32 pairs
	secSegLength = "net.seg_length" // float32
	secSegName   = "net.seg_name"   // uint32
	secSegRef    = "net.seg_ref"    // uint32
	secSegClass  = "net.seg_class"  // uint8
	secSegFlags  = "net.seg_flags"  // uint8
	secStrOff    = "net.str_off"    // uint32
	secStrData   = "net.str_data"   // bytes
	secClasses   = "net.classes"    // newline-separated
	secProfiles  = "net.profiles"   // newline-separated
	secSchedules = "net.schedules"  // newline-separated opening_hours texts
	secZone      = "net.zone"       // IANA time zone name
	// Optional: a file written before they were kept lacks them.
	secSegWay  = "net.seg_way"  // int64: the segment's OSM way id
	secSegSign = "net.seg_sign" // uint32: string id of the way's signposts
	// uint8: the way's sac_scale grade (Network.SegHiking)
	secSegHiking = "net.seg_hiking"
)

// dupSection names a profile's duplicate arcs' originals (see dup.go). A
// file without it, written before via-way restrictions were modelled, has
// no duplicates.
func dupSection(name string) string { return name + ".arc_dup" }

// condSections names a profile's Conditions sections.
func condSections(name string) (arcs, arcAt, turns, data string) {
	return name + ".cond_arcs", name + ".cond_arc_at", name + ".cond_turns", name + ".cond_data"
}

// profileSections names a profile's sections: travel times, Big, the arcs,
// ArcOf and the turn graph.
func profileSections(name string) (wf, wb, big, arcFirst, arcs, arcOf, turnFirst, turns string) {
	return name + ".wf", name + ".wb", name + ".big", name + ".arc_first", name + ".arcs", name + ".arc_of",
		name + ".turn_first", name + ".turns"
}

// Write adds the network and the graphs to an artifact.
func Write(w *artifact.Writer, net *Network, graphs []*Graph) error {
	names := make([]string, len(graphs))
	for i, g := range graphs {
		names[i] = g.Profile
	}
	errs := []error{
		artifact.AddSlice(w, secNodeCoord, net.NodeCoord),
		artifact.AddSlice(w, secSegFrom, net.SegFrom),
		artifact.AddSlice(w, secSegTo, net.SegTo),
		artifact.AddSlice(w, secSegGeom, net.SegGeom),
		artifact.AddSlice(w, secGeom, net.GeomCoord),
		artifact.AddSlice(w, secSegLength, net.SegLength),
		artifact.AddSlice(w, secSegName, net.SegName),
		artifact.AddSlice(w, secSegRef, net.SegRef),
		artifact.AddSlice(w, secSegClass, net.SegClass),
		artifact.AddSlice(w, secSegFlags, net.SegFlags),
		artifact.AddSlice(w, secStrOff, net.Strings.Offsets),
		w.Add(secStrData, net.Strings.Data),
		w.Add(secClasses, []byte(strings.Join(net.Classes, "\n"))),
		w.Add(secProfiles, []byte(strings.Join(names, "\n"))),
		w.Add(secSchedules, []byte(scheduleTexts(net))),
		w.Add(secZone, []byte(zoneName(net))),
	}
	if net.SegWay != nil {
		errs = append(errs, artifact.AddSlice(w, secSegWay, net.SegWay), artifact.AddSlice(w, secSegSign, net.SegSign))
	}
	if net.SegHiking != nil {
		errs = append(errs, artifact.AddSlice(w, secSegHiking, net.SegHiking))
	}
	for _, g := range graphs {
		wf, wb, big, af, ae, ao, tf, te := profileSections(g.Profile)
		errs = append(errs,
			artifact.AddSlice(w, wf, g.WF), artifact.AddSlice(w, wb, g.WB), artifact.AddSlice(w, big, g.Big),
			artifact.AddSlice(w, af, g.Fwd.First), artifact.AddSlice(w, ae, g.Fwd.Edges), artifact.AddSlice(w, ao, g.ArcOf),
			artifact.AddSlice(w, tf, g.Turns.First), artifact.AddSlice(w, te, g.Turns.Edges))
		ca, cat, ct, cd := condSections(g.Profile)
		errs = append(errs, artifact.AddSlice(w, dupSection(g.Profile), g.Dup), artifact.AddSlice(w, ca, g.Cond.Arcs), artifact.AddSlice(w, cat, g.Cond.ArcAt),
			artifact.AddSlice(w, ct, g.Cond.Turns), artifact.AddSlice(w, cd, g.Cond.Data))
		if g.Limits != nil {
			errs = append(errs, artifact.AddSlice(w, limitsSection(g.Profile), g.Limits))
		}
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("graph: %w", err)
		}
	}
	return nil
}

// loader collects the first error of a series of section views.
type loader struct {
	f   *artifact.File
	err error
}

func view[T artifact.Fixed](l *loader, name string) []T {
	if l.err != nil {
		return nil
	}
	v, err := artifact.SectionView[T](l.f, name)
	l.err = err
	return v
}

// optional is view for a section a file may lack: nil when absent.
func optional[T artifact.Fixed](l *loader, name string) []T {
	if l.err != nil {
		return nil // an earlier section's error is kept
	}
	v := view[T](l, name)
	if errors.Is(l.err, artifact.ErrNoSection) {
		l.err = nil
		return nil
	}
	return v
}

// Load views the network and every profile's graph in f without copying
// array data (only the small class and profile name lists are decoded).
func Load(f *artifact.File) (*Network, map[string]*Graph, error) {
	l := &loader{f: f}
	net := &Network{
		NodeCoord: view[int32](l, secNodeCoord), SegFrom: view[uint32](l, secSegFrom), SegTo: view[uint32](l, secSegTo),
		SegGeom: view[uint32](l, secSegGeom), GeomCoord: view[int32](l, secGeom), SegLength: view[float32](l, secSegLength),
		SegName: view[uint32](l, secSegName), SegRef: view[uint32](l, secSegRef),
		SegClass: view[uint8](l, secSegClass), SegFlags: view[uint8](l, secSegFlags),
		Strings: Strings{Offsets: view[uint32](l, secStrOff), Data: view[byte](l, secStrData)},
	}
	net.Classes = strings.Split(string(view[byte](l, secClasses)), "\n")
	profiles := strings.Split(string(view[byte](l, secProfiles)), "\n")
	schedules, zone := string(view[byte](l, secSchedules)), string(view[byte](l, secZone))
	net.SegWay, net.SegSign = optional[int64](l, secSegWay), optional[uint32](l, secSegSign)
	net.SegHiking = optional[uint8](l, secSegHiking)
	if l.err != nil {
		return nil, nil, fmt.Errorf("graph: %w", l.err)
	}
	if err := net.loadConditions(schedules, zone); err != nil {
		return nil, nil, err
	}
	if err := net.check(); err != nil {
		return nil, nil, err
	}
	graphs := make(map[string]*Graph, len(profiles))
	for _, name := range profiles {
		wf, wb, big, af, ae, ao, tf, te := profileSections(name)
		g := &Graph{Net: net, Profile: name, WF: view[uint32](l, wf), WB: view[uint32](l, wb), Big: view[uint8](l, big),
			Fwd: CSR{First: view[uint32](l, af), Edges: view[uint32](l, ae)}, ArcOf: view[uint32](l, ao),
			Turns: CSR{First: view[uint32](l, tf), Edges: view[uint32](l, te)}}
		if l.err == nil {
			g.Dup, l.err = artifact.SectionView[uint32](f, dupSection(name))
			if errors.Is(l.err, artifact.ErrNoSection) {
				g.Dup, l.err = nil, nil
			}
		}
		ca, cat, ct, cd := condSections(name)
		g.Cond = Conditions{Arcs: view[uint32](l, ca), ArcAt: view[uint32](l, cat), Turns: view[uint32](l, ct), Data: view[uint32](l, cd)}
		g.Limits = optional[uint32](l, limitsSection(name))
		if l.err != nil {
			return nil, nil, fmt.Errorf("graph: profile %s: %w", name, l.err)
		}
		if err := g.check(); err != nil {
			return nil, nil, err
		}
		if err := g.checkLimits(); err != nil {
			return nil, nil, err
		}
		if err := g.Cond.check(len(g.Fwd.Edges)/3, len(net.Schedules)); err != nil {
			return nil, nil, fmt.Errorf("graph: profile %s: %w", name, err)
		}
		g.markConditions()
		g.indexEntries()
		graphs[name] = g
	}
	return net, graphs, nil
}

// check verifies the array lengths agree, so that indexing cannot go out of
// range on a file whose checksums were not verified. It is O(1).
func (n *Network) check() error {
	s := len(n.SegFrom)
	ok := len(n.NodeCoord)%2 == 0 && len(n.GeomCoord)%2 == 0 &&
		len(n.SegTo) == s && len(n.SegGeom) == s+1 && len(n.SegLength) == s &&
		len(n.SegName) == s && len(n.SegRef) == s && len(n.SegClass) == s && len(n.SegFlags) == s &&
		len(n.Strings.Offsets) >= 2 && int(n.Strings.Offsets[len(n.Strings.Offsets)-1]) <= len(n.Strings.Data) &&
		int(n.SegGeom[s]) == len(n.GeomCoord)/2 &&
		(n.SegWay == nil || len(n.SegWay) == s) && (n.SegSign == nil || len(n.SegSign) == s) &&
		(n.SegHiking == nil || len(n.SegHiking) == s)
	if !ok {
		return fmt.Errorf("graph: %w: network arrays disagree in length", artifact.ErrCorrupt)
	}
	return nil
}

// check is Network.check for a profile: O(1) but for the duplicate arcs,
// which are few.
func (g *Graph) check() error {
	s, n := g.Net.NumSegments(), g.Net.NumNodes()
	arcs := len(g.Fwd.Edges) / 3
	ok := len(g.WF) == s && len(g.WB) == s && len(g.Big) == s && len(g.ArcOf) == 2*s &&
		len(g.Fwd.First) == n+1 && 3*int(g.Fwd.First[n]) <= len(g.Fwd.Edges) && len(g.Fwd.Edges)%3 == 0 &&
		len(g.Turns.First) == arcs+1 && 3*int(g.Turns.First[arcs]) == len(g.Turns.Edges) && g.checkDuplicates()
	if !ok {
		return fmt.Errorf("graph: %w: profile %s arrays disagree in length", artifact.ErrCorrupt, g.Profile)
	}
	return nil
}
