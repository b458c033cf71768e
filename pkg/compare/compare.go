package compare

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/mapsco/maps/pkg/route"
)

// Run compares the release in newDir with the one in oldDir (each a
// release directory, or a directory of releases whose current pointer is
// followed) and returns the report, without checking thresholds (see
// Report.Check).
func Run(ctx context.Context, oldDir, newDir string, o Options) (*Report, error) {
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	oldS, err := openSide(oldDir)
	if err != nil {
		return nil, err
	}
	defer oldS.close()
	newS, err := openSide(newDir)
	if err != nil {
		return nil, err
	}
	defer newS.close()
	if err := checkCommonRoad(oldS.network(), newS.network()); err != nil {
		return nil, err
	}
	rep := newReport(oldS, newS, o)
	prs := make([]pairRouters, len(rep.Profiles))
	for i, p := range rep.Profiles {
		oldR, newR := oldS.router(p), newS.router(p)
		prs[i] = pairRouters{profile: p, old: oldR, new: newR,
			oldSt: oldR.StateAt(o.Departure), newSt: newR.StateAt(o.Departure)}
	}
	if err := checkLandmarkProfiles(o.Landmarks, rep.Profiles); err != nil {
		return nil, err
	}
	samples, err := drawSamples(ctx, prs, o)
	if err != nil {
		return nil, err
	}
	if err := rep.compareRoutes(ctx, prs, samples, o); err != nil {
		return nil, err
	}
	if err := rep.compareRest(ctx, oldS, newS, prs, samples, o); err != nil {
		return nil, err
	}
	if o.Map {
		if err := rep.drawPicture(ctx, prs, newS.network(), o); err != nil {
			return nil, err
		}
	}
	rep.ElapsedS = time.Since(start).Seconds()
	return rep, nil
}

func newReport(oldS, newS *side, o Options) *Report {
	rep := &Report{Old: infoOf(oldS), New: infoOf(newS), Options: ReportOptions{Pairs: o.Pairs, Seed: o.Seed,
		MatrixPoints: max(0, o.MatrixPoints), Isochrones: max(0, o.Isochrones), IsochroneMinutes: o.IsochroneMinutes,
		ElevationPoints: max(0, o.ElevationPoints), PresenceM: o.PresenceM, Departure: o.Departure}}
	newProfiles := newS.profiles()
	for _, p := range oldS.profiles() {
		if slices.Contains(newProfiles, p) {
			rep.Profiles = append(rep.Profiles, p)
		} else {
			rep.Missing = append(rep.Missing, p)
		}
	}
	for _, p := range newProfiles {
		if !slices.Contains(rep.Profiles, p) {
			rep.Added = append(rep.Added, p)
		}
	}
	rep.Counts = compareCounts(oldS.manifest, newS.manifest)
	rep.Models = compareModels(oldS.manifest, newS.manifest)
	return rep
}

func infoOf(s *side) ReleaseInfo {
	return ReleaseInfo{Dir: s.dir, DataVersion: s.manifest.DataVersion, BuildTime: s.manifest.BuildTime, Source: s.manifest.Source.SHA256}
}

func checkLandmarkProfiles(ls []Landmark, profiles []string) error {
	for i, l := range ls {
		if l.Profile != "" && !slices.Contains(profiles, l.Profile) {
			return fmt.Errorf("compare: landmark %d (%q): profile %q is not in both releases (%v)", i, l.Name, l.Profile, profiles)
		}
	}
	return nil
}

// drawSamples draws each profile's points, profiles in parallel. Each
// profile has its own random stream, seeded by the seed and the profile's
// name, so adding a profile changes no other profile's sample.
func drawSamples(ctx context.Context, prs []pairRouters, o Options) ([]sample, error) {
	out := make([]sample, len(prs))
	err := forEach(ctx, o.Workers, len(prs), func(i int) error {
		rng := rand.New(rand.NewPCG(o.Seed, nameHash(prs[i].profile)))
		out[i] = drawSample(prs[i].profile, prs[i].old, prs[i].new, rng, 2*o.Pairs, o.PresenceM)
		return nil
	})
	return out, err
}

func nameHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// compareRoutes routes every profile's pairs and the landmarks.
func (rep *Report) compareRoutes(ctx context.Context, prs []pairRouters, samples []sample, o Options) error {
	for i, pr := range prs {
		pairs, err := routePairs(ctx, pr, samples[i].kept, o.Workers)
		if err != nil {
			return fmt.Errorf("compare: %s routes: %w", pr.profile, err)
		}
		sum := summarizeRoutes(pr.profile, pairs, o.Worst)
		for j := range sum.Worst {
			pr.nameRoads(ctx, &sum.Worst[j])
		}
		rep.Routes = append(rep.Routes, sum)
		rep.Snaps = append(rep.Snaps, summarizeSnaps(samples[i], o.Worst))
	}
	for _, l := range o.Landmarks {
		for _, pr := range prs {
			if l.Profile != "" && l.Profile != pr.profile {
				continue
			}
			c, err := pr.comparePair(ctx, l.From, l.To)
			if err != nil {
				return fmt.Errorf("compare: landmark %q: %w", l.Name, err)
			}
			c.Name = l.Name
			pr.nameRoads(ctx, &c)
			rep.Landmarks = append(rep.Landmarks, c)
		}
	}
	return nil
}

// compareRest compares the matrices, isochrones and elevations.
func (rep *Report) compareRest(ctx context.Context, oldS, newS *side, prs []pairRouters, samples []sample, o Options) error {
	if o.MatrixPoints > 0 {
		for i, pr := range prs {
			pts := samples[i].kept[:min(o.MatrixPoints, len(samples[i].kept))]
			if len(pts) < 2 {
				continue // the new release kept (almost) none of the profile's roads: the snaps say so
			}
			rep.Matrices = append(rep.Matrices, compareMatrix(pr, pts, o.Worst))
		}
	}
	if o.Isochrones > 0 {
		iso, err := compareIsochrones(ctx, isochroneJobs(prs, samples, o.Isochrones), o.IsochroneMinutes, o.Departure, o.Workers, o.Worst)
		if err != nil {
			return fmt.Errorf("compare: isochrones: %w", err)
		}
		rep.Isochrones = &iso
	}
	if o.ElevationPoints > 0 {
		el := compareElevation(oldS.dem(), newS.dem(), takeInTurn(samples, o.ElevationPoints), o.Worst)
		rep.Elevation = &el
	}
	return nil
}

// isochroneJobs takes n origins from the samples, one profile after the
// other: each profile's first pair starts, then its second, and so on.
func isochroneJobs(prs []pairRouters, samples []sample, n int) []isoJob {
	var jobs []isoJob
	if len(prs) == 0 {
		return nil
	}
	for k := 0; len(jobs) < n && k < 2*len(prs)*n; k++ {
		i, j := k%len(prs), 2*(k/len(prs))
		if j < len(samples[i].kept) {
			jobs = append(jobs, isoJob{pr: prs[i], origin: samples[i].kept[j]})
		}
	}
	return jobs
}

// takeInTurn takes n points from the samples, one profile after the other.
func takeInTurn(samples []sample, n int) []route.Point {
	var pts []route.Point
	for k := 0; len(pts) < n && len(samples) > 0 && k < len(samples)*n; k++ {
		s := samples[k%len(samples)]
		if j := k / len(samples); j < len(s.kept) {
			pts = append(pts, s.kept[j])
		}
	}
	return pts
}
