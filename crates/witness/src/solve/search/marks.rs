//! Elimination-mark budgets: the elements lost for good (dots, triangles,
//! square pairs) on the whole board and in each region, against the marks
//! left to cancel them, and the check of an open region with marks.

use super::*;

impl<'p, const N: usize> Search<'p, N> {
    /// With elimination marks: each dot the line can no longer cover and
    /// each triangle already wrong for good is an error only a mark of its
    /// own can cancel (one mark removes one element), so there may not be
    /// more of them than marks on the board.
    pub(super) fn negation_budget_ok(&mut self, reach: &Bits<N>) -> bool {
        let plan = self.plan;
        self.lost_dots.clear();
        // Dotted nodes out of reach, or passed only, with fewer than two
        // ways left.
        let mut lost = self.masks.dot_nodes.and(&self.free).and_not(reach);
        let pass = self.dot_passes.and(&self.free).and(reach);
        if !pass.is_empty() {
            lost = lost.or(&pass.and_not(&self.two_ways(reach)));
        }
        let mut errors = lost.count();
        if errors > self.negas {
            return false;
        }
        let states = self.edge_states(reach);
        let st = Some(&states);
        for &d in &plan.edge_dots {
            if !self.edge_open_on(d as usize, st, reach) {
                errors += 1;
            }
        }
        self.lost_triangles = Bits::empty();
        for (t, &(f, k, edges)) in plan.triangles.iter().enumerate() {
            let lost = self.triangle_lost_on(t, k, &edges, &states, reach);
            if lost {
                errors += 1;
                let f = self.fm.face_of[f as usize];
                if f != NONE {
                    self.lost_triangles.set(f as usize);
                }
            }
        }
        if errors > self.negas {
            return false;
        }
        // Squares of different colours side by side that the line can no
        // longer separate: one of each such pair goes. Pairs sharing no
        // square (a greedy matching) need a mark each.
        let mut used = Bits::<N>::empty();
        let mut pairs = [0u32; 16];
        let mut npairs = 0;
        for &e in &plan.must_cover {
            let e = e as usize;
            if self.edge_open_on(e, st, reach) {
                continue;
            }
            let (f, g) = self.pair_faces(e);
            if f == NONE || g == NONE || used.get(f as usize) || used.get(g as usize) {
                continue;
            }
            used.set(f as usize);
            used.set(g as usize);
            if npairs < pairs.len() {
                pairs[npairs] = f;
            }
            npairs += 1;
        }
        errors += npairs as u32;
        errors <= self.negas
            && (errors == 0 || self.lost_regions_ok(reach, lost, &pairs[..npairs.min(pairs.len())]))
    }

    /// The inside faces on the two sides of edge slot `e` (`NONE` where
    /// there is none).
    pub(super) fn pair_faces(&self, e: usize) -> (u32, u32) {
        let b = &self.plan.rules.board;
        let sides = if (e % b.h).is_multiple_of(2) {
            [2, 3]
        } else {
            [0, 1]
        };
        let face = |k: usize| {
            let f = b.nbr[e][k];
            if f == NONE {
                return NONE;
            }
            let f = self.fm.face_of[f as usize];
            if f != NONE && self.fm.inside.get(f as usize) {
                f
            } else {
                NONE
            }
        };
        (face(sides[0]), face(sides[1]))
    }

    /// With elimination marks: a dot or triangle lost for good is an error
    /// in the region that holds it, and only a mark in that region can
    /// cancel it. Regions only split as the line grows, and a part gets
    /// its share of both the errors and the marks, so already now no region
    /// may hold more lost errors than marks.
    pub(super) fn lost_regions_ok(
        &mut self,
        reach: &Bits<N>,
        mut lost: Bits<N>,
        pairs: &[u32],
    ) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        // The face each lost error's region is found from (at most 64).
        let mut faces = [0u32; 64];
        let mut k = 0;
        while let Some(v) = lost.first() {
            lost.clear(v);
            let s = plan.slot_of_node[v] as usize;
            // An uncovered node joins the faces beside its uncovered edges.
            let f = (0..4).find_map(|d| {
                let e = b.nbr[s][d];
                if e == NONE || self.covered[e as usize] || b.outside[e as usize] {
                    return None;
                }
                self.side_face(e as usize)
            });
            if let (Some(f), true) = (f, k < faces.len()) {
                faces[k] = f;
                k += 1;
            }
        }
        for &d in &plan.edge_dots {
            let d = d as usize;
            if !self.slot_coverable(d, reach) && k < faces.len() {
                if let Some(f) = self.side_face(d) {
                    faces[k] = f;
                    k += 1;
                }
            }
        }
        self.lost_dots.extend_from_slice(&faces[..k]);
        // The triangles lost for good, as the caller just found them.
        for f in self.lost_triangles.and(&self.fm.inside).iter() {
            if k < faces.len() {
                faces[k] = f as u32;
                k += 1;
            }
        }
        // Each matched square pair: one error in the region of its faces
        // (the edge between them is uncovered, so they share a region).
        for &f in pairs {
            if k < faces.len() {
                faces[k] = f;
                k += 1;
            }
        }
        if k == 0 {
            return true;
        }
        self.mend_half_walls();
        let mut seen = Bits::<N>::empty();
        for i in 0..k {
            let f = faces[i] as usize;
            if seen.get(f) {
                continue;
            }
            let region = self.region_at(f);
            seen = seen.or(&region);
            let errors = faces[i..k]
                .iter()
                .filter(|&&g| region.get(g as usize))
                .count() as u32;
            if errors > region.and(&self.fm.negas).count() {
                return false;
            }
        }
        true
    }

    /// An inside face beside uncovered edge slot `e` (its region is the
    /// edge's), if any.
    pub(super) fn side_face(&self, e: usize) -> Option<u32> {
        let (f, g) = self.pair_faces(e);
        [f, g].into_iter().find(|&f| f != NONE)
    }

    /// False when an open region holding elimination marks already has
    /// more elements that must go than marks. A mark removes one element of
    /// its own final region, and the region's final regions split its
    /// elements and its marks between them, so the elements that are wrong
    /// in any part of it each need a mark of their own: dots the line can
    /// no longer cover, triangles already wrong for good, stars with no
    /// partner of their colour left in it (marks do not count: a used mark
    /// is gone at the final check; under the Windmill's rules they do, as
    /// its marks are counted before anything goes), the pieces that cannot all tile a part
    /// of it ([`FaceMasks::pieces_in_excess`], without subtractive pieces
    /// in it), in a `sealed` region, which is final, the pieces that must
    /// go before the rest have the net area the fit needs
    /// ([`FaceMasks::final_pieces_in_excess`]), and in each part the line can no longer cut all squares but
    /// those of one colour and all stars of a colour but two. These are
    /// distinct elements, so their counts add up. Under the Windmill's
    /// rules (`docs/rules.md#rule-profiles`), which spend a mark on each
    /// such element too, the pieces are left out: equal areas cancel there,
    /// so no count of pieces must go.
    pub(super) fn marked_region_ok(
        &self,
        region: &Bits<N>,
        sealed: bool,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
    ) -> bool {
        let fm = &self.fm;
        let windmill = self.plan.rules.board.windmill;
        let marks = region.and(&fm.negas).count();
        let mut need = self
            .lost_dots
            .iter()
            .filter(|&&f| region.get(f as usize))
            .count() as u32;
        for sc in &fm.stars {
            let partners = if windmill {
                region.and(&sc.all)
            } else {
                region.and(&sc.all).and_not(&fm.negas)
            };
            if region.intersects(&sc.stars) && partners.count() < 2 {
                need += 1;
            }
        }
        need += region.and(&self.lost_triangles).count();
        if need > marks {
            return false;
        }
        if windmill {
        } else if sealed && region.intersects(&fm.ylops) {
            need += fm.final_pieces_in_excess(region);
        } else if region.intersects(&fm.sized_polys) && !region.intersects(&fm.ylops) {
            let mut excess = fm.pieces_in_excess(region);
            if sealed && fm.area(region) != region.count() {
                excess = excess.max(fm.final_pieces_in_excess(region));
            }
            need += excess;
        }
        if need > marks {
            return false;
        }
        if !region.intersects(&fm.colored_squares_stars) {
            return true;
        }
        // Squares of one colour and at most two stars of each colour: no
        // part has anything to count.
        if !fm.mixed_squares(region) && fm.stars.iter().all(|sc| region.and(&sc.stars).count() <= 2)
        {
            return true;
        }
        let stuck = stuck.get_or_insert_with(|| self.stuck_links(reach));
        // A face without such links is a part of one symbol: nothing to
        // count there.
        let seeds = region.and(&fm.colored_squares_stars).and(&fm.linked(stuck));
        self.parts_of(seeds, stuck, |part| {
            let (mut all, mut most) = (0, 0);
            for sq in &fm.squares {
                let n = part.and(sq).count();
                all += n;
                most = most.max(n);
            }
            need += all - most;
            // Stars of one colour: all go, or two symbols of the colour
            // stay in the final region, so at most two of them.
            for sc in &fm.stars {
                need += part.and(&sc.stars).count().saturating_sub(2);
            }
            need <= marks
        })
    }
}
