//! Region checks: the regions beside the head and those cut off from the
//! line (sealed, final: judged by the validator's own region check, or by
//! a tiling search on face bitsets), the regions at an end, and the open
//! regions without elimination marks that are already hopeless.

use super::*;

impl<'p, const N: usize> Search<'p, N> {
    /// Checks the regions beside the head (and beside its mirror), and all
    /// regions beside the nodes `dropped` out of reach since the last node
    /// checked on this branch (theirs are the only other cuts and seals
    /// that can have changed): a region the line can
    /// no longer touch gets the validator's region check, an open one the
    /// hopelessness tests.
    pub(super) fn regions_ok(&mut self, h: usize, reach: &Bits<N>, dropped: &Bits<N>) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        let heads = if plan.symmetric {
            [h, b.mirror[h] as usize]
        } else {
            [h, h]
        };
        self.mend_half_walls();
        // The faces the line may still cut: those at a node it can reach
        // (not the heads: the line is on them), and those beside an edge
        // the line may end on from here and beside its mirror (the mirror
        // line covers it; a mid-edge end joins the faces on both sides in
        // the final regions).
        let mut ahead = *reach;
        for &hh in &heads {
            ahead.clear(plan.node_of[hh] as usize);
        }
        let mut touch = self.fm.touched(&ahead);
        if b.nbr[h]
            .iter()
            .any(|&e| e != NONE && b.end[e as usize] && self.can_enter(e as usize, false))
        {
            for &hh in &heads {
                for f in self.fm.around[hh] {
                    if f != NONE {
                        touch.set(f as usize);
                    }
                }
            }
        }
        // Sealed regions judged higher up this branch are final: skip them.
        let known = self.finals.last().copied().unwrap_or(Bits::empty());
        let mut sealed = known;
        let mut done = known;
        let mut stuck = None;
        for (hi, &hh) in heads.iter().enumerate() {
            if hi == 1 && hh == h {
                break;
            }
            for k in 0..4 {
                let f = self.fm.around[hh][k];
                if f == NONE {
                    break;
                }
                let f = f as usize;
                if done.get(f) {
                    continue;
                }
                let mut seed = Bits::empty();
                seed.set(f);
                let (region, open) = self.region_of(seed, &touch, &ahead);
                done = done.or(&region);
                if !self.region_judged_ok(&region, open, reach, &mut stuck, &mut sealed) {
                    return false;
                }
            }
        }
        // Away from the head, regions change when free nodes drop out of
        // reach: a region loses its last reachable corner (sealed), or links
        // beside the lost nodes can no longer be cut. So the regions beside
        // them are judged too.
        if self.fm.open_checks && !dropped.is_empty() {
            let mut rest = self.fm.touched(dropped).and_not(&done);
            while let Some(f) = rest.first() {
                let mut seed = Bits::empty();
                seed.set(f);
                let (region, open) = self.region_of(seed, &touch, &ahead);
                rest = rest.and_not(&region);
                if !self.region_judged_ok(&region, open, reach, &mut stuck, &mut sealed) {
                    return false;
                }
            }
        }
        if sealed != known {
            self.finals.push(sealed);
        }
        true
    }

    /// Judges one region: an open one by the hopelessness tests (without
    /// elimination marks: an open region without marks never gets one, the
    /// plain rules judge whatever it splits into, and its parts the line can
    /// no longer cut grow with every step), a sealed one by the validator's
    /// region check, adding it to `sealed` when it passes.
    pub(super) fn region_judged_ok(
        &mut self,
        region: &Bits<N>,
        open: bool,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
        sealed: &mut Bits<N>,
    ) -> bool {
        if open {
            if !self.fm.open_checks {
                return true;
            }
            if region.intersects(&self.fm.negas) {
                return self.marked_region_ok(region, false, reach, stuck);
            }
            let ok = self.open_region_ok(region, reach, stuck);
            if !ok {
                super::inspect::note(super::inspect::CUT_OPEN);
            }
            return ok;
        }
        if !self.sealed_ok(region, reach, stuck) {
            super::inspect::note(super::inspect::CUT_SEALED);
            return false;
        }
        *sealed = sealed.or(region);
        true
    }

    /// The region of the faces in `seed`, and whether the line can still
    /// touch it (a face of it in `touch`, or a rim node of it in `ahead`).
    #[inline]
    pub(super) fn region_of(
        &self,
        seed: Bits<N>,
        touch: &Bits<N>,
        ahead: &Bits<N>,
    ) -> (Bits<N>, bool) {
        if self.fm.exact {
            let region = self.fm.flood(seed, &self.links);
            (region, region.intersects(touch))
        } else {
            let (region, nodes) = self.fm.flood_rim(seed, &self.links, &self.rim);
            (region, region.intersects(touch) || nodes.intersects(ahead))
        }
    }

    /// Sets the links of covered start edges: joined while an end node and
    /// the edges beside it on both sides are open (the pass-through start
    /// and, at an end on an edge, that edge count as open).
    pub(super) fn mend_half_walls(&mut self) {
        let b = &self.plan.rules.board;
        let (nc, end) = (self.noncount(), self.end_through);
        let open = |s: u32| {
            s != NONE && {
                let s = s as usize;
                !b.outside[s] && (!self.covered[s] || s == nc || s == end)
            }
        };
        for k in 0..self.half_walls.len() {
            let (link, corners) = self.half_walls[k];
            let joined = corners.iter().any(|c| c.iter().all(|&s| open(s)));
            self.links.put(link, joined);
        }
    }

    /// A region's verdict from the bitsets alone, without elimination marks and
    /// assuming its dots and triangles are right: squares of one colour, stars
    /// with exactly one partner, pieces whose net area (subtractive ones
    /// counting against it) is not below 0 and, when above 0, equals the
    /// region's (`docs/rules.md#polyominoes`, steps 3 and 4). `None` when
    /// pieces pass that test and only a fit can tell.
    pub(super) fn region_bits(&self, region: &Bits<N>) -> Option<bool> {
        let fm = &self.fm;
        if fm.mixed_squares(region) {
            return Some(false);
        }
        for sc in &fm.stars {
            if region.intersects(&sc.stars) && region.and(&sc.all).count() != 2 {
                return Some(false);
            }
        }
        if !region.intersects(&fm.any_poly) {
            return Some(true);
        }
        let area = i64::from(fm.area(region)) - i64::from(fm.ylop_area(region));
        if area < 0 || (area > 0 && area != i64::from(region.count())) {
            return Some(false);
        }
        None
    }

    /// The region (as the face links stand) holding face index `f`.
    #[inline]
    pub(super) fn region_at(&self, f: usize) -> Bits<N> {
        let mut seed = Bits::empty();
        seed.set(f);
        if self.fm.exact {
            self.fm.flood(seed, &self.links)
        } else {
            self.fm.flood_rim(seed, &self.links, &self.rim).0
        }
    }

    /// At endpoint `q`: false when some region already fails, so the full
    /// validation need not run. Every region is final there: those sealed
    /// higher up this branch passed, the others get the sealed regions'
    /// checks ([`Search::sealed_ok`]: the bitset tests, then the
    /// validator's own region check, whose verdicts are kept). With
    /// elimination marks, at an end on a node, the search's own counting
    /// tests with nothing left for the line to reach come first.
    ///
    /// At an end on an edge the validator's regions pass through it
    /// (`docs/rules.md#regions`), and with symmetry round the tip of the mirror
    /// line's end, a node the line has not covered: so there the regions are
    /// listed slot by slot as the validator floods them (only on boards without
    /// removed faces), and the counting tests, which know regions as the search
    /// floods them, are left out.
    pub(super) fn end_regions_ok(&mut self, q: usize) -> bool {
        let none = Bits::empty();
        let on_edge = self.plan.rules.board.kind[q] == SlotKind::Edge;
        if on_edge {
            if !self.fm.exact {
                return true;
            }
            // Found at another node (maybe on another branch): the region
            // tests below count none.
            self.lost_dots.clear();
            self.lost_triangles = Bits::empty();
        } else if !self.plan.local_prune && !self.negation_budget_ok(&none) {
            return false;
        }
        if !self.fm.open_checks {
            return true;
        }
        if on_edge {
            self.end_through = q;
        }
        // (A covered start edge may join faces round its node through an
        // end edge there.)
        self.mend_half_walls();
        let known = self.finals.last().copied().unwrap_or(Bits::empty());
        let (mut stuck, mut sealed) = (None, known);
        let mut rest = self.fm.inside.and_not(&known);
        // Without symmetry the end edge joins just the faces on its sides:
        // past it the flood goes on only to its far node when that is
        // uncovered, and then no line has reached that node, so its other
        // edges join the faces round it already. So the face links tell the
        // regions once the end edge's link is open (and then as it was: it
        // may be the pass-through start).
        let end_link = if on_edge && !self.plan.symmetric {
            self.fm.link_of[q].map(|l| (l, self.links.get(l)))
        } else {
            None
        };
        if let Some((l, _)) = end_link {
            self.links.put(l, true);
        }
        let mut ok = true;
        while let Some(f) = rest.first() {
            let region = if on_edge && !self.plan.symmetric {
                self.region_at(f)
            } else if on_edge {
                let slots = self.list_region(self.fm.slot_of[f] as usize);
                let mut region = Bits::empty();
                for &s in &slots {
                    let g = self.fm.face_of[s as usize];
                    if g != NONE {
                        region.set(g as usize);
                    }
                }
                self.region_buf = slots;
                region
            } else {
                self.region_at(f)
            };
            rest = rest.and_not(&region);
            if !self.region_judged_ok(&region, false, &none, &mut stuck, &mut sealed) {
                ok = false;
                break;
            }
        }
        if let Some((l, was)) = end_link {
            self.links.put(l, was);
        }
        self.end_through = usize::MAX;
        if on_edge {
            self.mend_half_walls();
        }
        ok
    }

    /// Judges a region the line can no longer touch: its slots, walls and
    /// so its verdict are final. Without elimination marks and pieces the
    /// bitsets decide (squares of one colour, stars with exactly one
    /// partner; dots and triangles the local checks have already seen);
    /// otherwise the validator's own region check runs on its slots (with
    /// elimination marks, after the cheap tests of open regions). `reach`
    /// and `stuck` are those of the open regions' tests.
    pub(super) fn sealed_ok(
        &mut self,
        region: &Bits<N>,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
    ) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        let fm = &self.fm;
        if !b.has_negations {
            if let Some(verdict) = self.region_bits(region) {
                return verdict;
            }
            if fm.exact {
                return self.fits_cached(region);
            }
        }
        // (The key does not tell an end on an edge the regions pass through.)
        let key = (fm.exact && self.visited >= plan.memo_after && self.end_through == usize::MAX)
            .then(|| self.sealed_key(region));
        if let Some(ok) = key.as_ref().and_then(|k| self.kept.sealed_verdicts.get(k)) {
            return ok;
        }
        // With elimination marks, the open regions' tests first, which cost
        // far less than the validator: a sealed region is final, so what
        // fails it in every future fails it now (the mark count with marks
        // in it; without, the bitset tests, as its dots and triangles could
        // only add failures).
        if b.has_negations && fm.open_checks {
            let hopeless = if region.intersects(&fm.negas) {
                !self.marked_region_ok(region, true, reach, stuck)
            } else {
                self.region_bits(region) == Some(false)
            };
            if hopeless {
                if let Some(key) = key {
                    self.kept.sealed_verdicts.put(key, false);
                }
                return false;
            }
        }
        let first = region.first().expect("a region has a face");
        // The engine lists a region from its first slot in scan order (the
        // pass-through start included): with elimination marks its order
        // matters to the elimination search.
        let seed = if !b.has_negations {
            fm.slot_of[first] as usize
        } else if fm.exact {
            let seed = self.first_slot(region);
            debug_assert_eq!(seed, self.first_slot_flooded(first), "the first slot");
            seed
        } else {
            self.first_slot_flooded(first)
        };
        let slots = self.list_region(seed);
        let ok = plan
            .rules
            .region_ok(&slots, &self.covered, self.start, &mut self.ws);
        self.region_buf = slots;
        if self.fit_interrupted() {
            return false;
        }
        if let Some(key) = key {
            self.kept.sealed_verdicts.put(key, ok);
        }
        ok
    }

    /// What decides the validator's check of a sealed region on a board
    /// without removed faces: its faces, whether each edge and node around
    /// them is covered (the region's slots are its faces and the uncovered
    /// slots around them; a triangle counts the covered ones), and the
    /// start (a pass-through start edge is no wall).
    pub(super) fn sealed_key(&self, region: &Bits<N>) -> SealedKey<N> {
        let nc = self.plan.ncols;
        // Faces share their index with their north-west node.
        let vertical = region.or(&self.fm.push_east(region));
        let horizontal = region.or(&region.shl(nc));
        let corners = vertical.or(&vertical.shl(nc));
        (
            *region,
            self.open_h.and(&horizontal),
            self.open_v.and(&vertical),
            self.free.and(&corners),
            self.start as u32,
        )
    }

    /// The first slot in scan order (column by column, top to bottom) of
    /// the slot region whose faces are `region`, on a board without removed
    /// faces: where the engine's flood starts it, so that the region is
    /// listed in its order without a flood to find that slot. Its pass-through
    /// slots (a mid-segment start or end) count, as the engine floods them.
    ///
    /// An edge belongs to the region when it is no wall and a face beside
    /// it does, a node when it is no wall and an edge of the region meets
    /// it. Only three slot columns can hold the first slot: the first
    /// face's, the one left of it, and on pillars the first column, which
    /// the last face column wraps to (a node there joins the first face
    /// column too unless covered start edges wall it off, so that case is
    /// rare). Debug builds check it against a flood.
    pub(super) fn first_slot(&self, region: &Bits<N>) -> usize {
        let b = &self.plan.rules.board;
        let fm = &self.fm;
        let (noncount, end) = (self.noncount(), self.end_through);
        let open = |j: usize| !b.outside[j] && (!self.covered[j] || j == noncount || j == end);
        let face_in = |j: u32| {
            j != NONE && {
                let f = fm.face_of[j as usize];
                f != NONE && region.get(f as usize)
            }
        };
        let edge_in = |j: u32| {
            j != NONE
                && b.kind[j as usize] == SlotKind::Edge
                && open(j as usize)
                && b.flood_nbr[j as usize].iter().any(|&k| face_in(k))
        };
        let slot_in = |j: usize| match b.kind[j] {
            SlotKind::Face => face_in(j as u32),
            SlotKind::Edge => edge_in(j as u32),
            SlotKind::Node => open(j) && b.flood_nbr[j].iter().any(|&k| edge_in(k)),
        };
        let face = region
            .iter()
            .map(|f| fm.slot_of[f] as usize)
            .min()
            .expect("a region has a face");
        let x = face / b.h;
        let mut from = [usize::MAX; 2];
        if b.pillar && x > 1 {
            from[0] = 0;
        }
        if x > 0 {
            from[1] = (x - 1) * b.h;
        }
        from.into_iter()
            .filter(|&f| f != usize::MAX)
            .flat_map(|f| f..f + b.h)
            .chain(x * b.h..face)
            .find(|&j| slot_in(j))
            .unwrap_or(face)
    }

    /// [`Search::first_slot`] of the region holding face index `first`,
    /// found by flooding it (boards with removed faces, and the check of
    /// `first_slot` in debug builds).
    pub(super) fn first_slot_flooded(&mut self, first: usize) -> usize {
        let b = &self.plan.rules.board;
        let slots = self.list_region(self.fm.slot_of[first] as usize);
        let mut min = slots.iter().copied().min().expect("a region has a face") as usize;
        for through in [self.noncount(), self.end_through] {
            if through < min && b.flood_nbr[through].iter().any(|t| slots.contains(t)) {
                min = through;
            }
        }
        self.region_buf = slots;
        min
    }

    /// The slots of the region holding slot `seed`, in the engine's flood
    /// order from it, in the reused region buffer (put it back after use).
    pub(super) fn list_region(&mut self, seed: usize) -> Vec<u32> {
        let mut slots = std::mem::take(&mut self.region_buf);
        crate::rules::regions::ordered_region(
            &self.plan.rules.board,
            &self.covered,
            self.start,
            self.end_through,
            seed,
            &mut slots,
            &mut self.stack,
        );
        slots
    }

    /// The slots of the region whose faces are `region`, listed from its
    /// first face (in the reused region buffer: put it back after use).
    pub(super) fn list_faces(&mut self, region: &Bits<N>) -> Vec<u32> {
        let first = region.first().expect("a region has a face");
        self.list_region(self.fm.slot_of[first] as usize)
    }

    /// True (and the search stopping) when a polyomino fit gave up on the
    /// limits: it then said "fits", and the search reports nothing more.
    pub(super) fn fit_interrupted(&mut self) -> bool {
        let interrupted = self.ws.fit_interrupted();
        self.stopped |= interrupted;
        if interrupted && self.turn.run_cap != u64::MAX && !self.limits.expired() {
            // Not the limits: the budget's step cap, in the middle of the
            // current node, which a resumed run searches afresh.
            self.budget_stop(true);
        }
        interrupted
    }

    /// Without elimination marks, on a board without removed faces: whether
    /// a sealed region's pieces fit it, which is all its check has left to
    /// tell once the bitsets have passed (the local checks have seen its
    /// dots and triangles; a wrong "yes" would only be caught at the end).
    /// The fit depends on the region's faces and on which edges between them
    /// are covered (and the start: a pass-through start edge is no wall),
    /// so verdicts are kept by those (at most [`MAX_FITS`]).
    pub(super) fn fits_cached(&mut self, region: &Bits<N>) -> bool {
        let links = self.links_walled();
        let key = (
            *region,
            Links {
                right: links.right.and(region),
                down: links.down.and(region),
                wrap: links.wrap.and(region),
            },
            // An end on an edge the region passes through joins it.
            self.start as u64 | (self.end_through.wrapping_add(1) as u64) << 32,
        );
        if let Some(fits) = self.kept.fits.get(&key) {
            return fits;
        }
        if let Some(fits) = self.tiles(region) {
            #[cfg(debug_assertions)]
            self.check_tiling(region, fits);
            self.kept.fits.put(key, fits);
            return fits;
        }
        let slots = self.list_faces(region);
        let fits = self.plan.rules.region_fits(&slots, &mut self.ws);
        self.region_buf = slots;
        if self.fit_interrupted() {
            return false;
        }
        self.kept.fits.put(key, fits);
        fits
    }

    /// Whether a sealed region's pieces tile it, decided on face bitsets
    /// ([`FaceMasks::tiles`]) where that is the validator's fit: pieces of
    /// positive size only, none subtractive, an area equal to the region's
    /// (as the bitset tests have found), and footprints of faces only, or
    /// precise ones (which hold the edges between their squares) in a
    /// region holding every edge between two of its faces. `None` when it
    /// does not apply or gives up after [`TILE_STEPS`] steps. Its steps
    /// count in the turn's budget as fit steps do. Its placements include
    /// every one the validator's fit allows, so a "no" is the validator's
    /// anyway; the wall test keeps a "yes" exact too (a wrong one would
    /// only prune less, as every end is validated in full).
    pub(super) fn tiles(&self, region: &Bits<N>) -> Option<bool> {
        let fm = &self.fm;
        if !fm.tileable(region) {
            return None;
        }
        if self.plan.rules.board.precise && self.walls_inside(region) {
            // A precise piece may not lie across a wall between two faces
            // of the region; the placements here do not know walls.
            return None;
        }
        debug_assert_eq!(fm.area(region), region.count(), "a tiling's area");
        self.tile_within(region, TILE_STEPS)
    }

    /// [`FaceMasks::tiles`] with up to `cap` steps, counted in the work.
    pub(super) fn tile_within(&self, region: &Bits<N>, cap: u32) -> Option<bool> {
        let mut steps = cap;
        let verdict = self
            .fm
            .tiles(region, &mut steps, &mut self.kept.tile_memo.borrow_mut());
        self.tile_steps
            .set(self.tile_steps.get() + u64::from(cap - steps));
        verdict
    }

    /// Debug builds: a verdict of [`Search::tiles`] is the validator's fit
    /// (in a workspace of its own, without the search's limits).
    #[cfg(debug_assertions)]
    pub(super) fn check_tiling(&mut self, region: &Bits<N>, fits: bool) {
        let slots = self.list_faces(region);
        let slow = self
            .plan
            .rules
            .region_fits(&slots, &mut Workspace::default());
        self.region_buf = slots;
        assert_eq!(fits, slow, "the bitset tiling against the validator's fit");
    }

    /// Whether two faces side by side in `region` have an edge between
    /// them that the validator's region does not hold: a wall (the line,
    /// or a covered start edge, ending inside it; a removed edge), or an
    /// edge its flood passes through without holding it (a mid-segment
    /// start, an end on an edge).
    pub(super) fn walls_inside(&self, region: &Bits<N>) -> bool {
        let fm = &self.fm;
        let mut links = self.links_walled();
        for through in [self.noncount(), self.end_through] {
            if let Some(&Some(link)) = fm.link_of.get(through) {
                links.put(link, false);
            }
        }
        let nc = fm.ncols;
        let right = region.and(&region.shr(1)).and(&fm.not_last);
        let down = region.and(&region.shr(nc));
        if !right.and_not(&links.right).is_empty() || !down.and_not(&links.down).is_empty() {
            return true;
        }
        fm.pillar && {
            let wrap = region.and(&fm.last_col).and(&region.shl(nc - 1));
            !wrap.and_not(&links.wrap).is_empty()
        }
    }

    /// False when an open region is already hopeless. Regions only ever
    /// split as the line grows, so it is when a star in it has no partner
    /// of its colour left in it (or the stars of a colour nothing else has
    /// there cannot pair up), when its pieces need more room than it has
    /// (with subtractive pieces: a net area below 0 or above its size), or
    /// when a part the line can no longer cut holds squares of two colours,
    /// a star with more than one partner or faces no piece can cover, or
    /// when its parts with pieces are short of area by more than the other
    /// parts' pieces have over, or (with subtractive pieces on the board)
    /// when a part with pieces cannot reach pieces enough to fill the
    /// region it ends up in ([`Search::piece_room_ok`]). Only used on
    /// regions without elimination marks.
    pub(super) fn open_region_ok(
        &self,
        region: &Bits<N>,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
    ) -> bool {
        let fm = &self.fm;
        for sc in &fm.stars {
            // Each final region with stars of the colour holds exactly two
            // symbols of it: with nothing else of the colour, two stars.
            let stars = region.and(&sc.stars).count();
            let all = region.and(&sc.all).count();
            if stars > 0 && (all < 2 || (all == stars && stars % 2 == 1)) {
                return false;
            }
        }
        // Pieces (none subtractive) must fill their final regions exactly.
        let area = if !fm.polys.is_empty() && !region.intersects(&fm.ylops) {
            fm.area(region)
        } else {
            if region.intersects(&fm.ylops) {
                // Each final region's pieces have a net area of 0 or its
                // size: the region's net area is between 0 and its size.
                let (add, take) = (fm.area(region), fm.ylop_area(region));
                if take > add || add - take > region.count() {
                    return false;
                }
            }
            0
        };
        if area > region.count() {
            return false;
        }
        let pieces = if area > 0 {
            region.and(&fm.sized_polys)
        } else {
            Bits::empty()
        };
        // Pieces, subtractive or not, whose parts get the room test, and
        // the region's area of each.
        let roomy = if self.plan.room && fm.exact && !fm.ylops.is_empty() {
            region.and(&fm.sized_polys.or(&fm.ylops))
        } else {
            Bits::empty()
        };
        let whole_room = if roomy.is_empty() {
            (0, 0)
        } else {
            (fm.area(region), fm.ylop_area(region))
        };
        // Without pieces, and with at most two symbols of each star's
        // colour, only squares of two colours in one part can fail it.
        let few_stars = pieces.is_empty()
            && roomy.is_empty()
            && fm
                .stars
                .iter()
                .all(|sc| !region.intersects(&sc.stars) || region.and(&sc.all).count() <= 2);
        if few_stars && !fm.mixed_squares(region) {
            return true;
        }
        let stuck = stuck.get_or_insert_with(|| self.stuck_links(reach));
        let linked = fm.linked(stuck);
        // A face without such links and without a piece is a part of one
        // square or star: nothing to find there. One with a piece (outside
        // the room test) is a part of one face that passes the tests below,
        // all such parts at once: the region's pieces have area (at least
        // 1), the part's own piece covers it, and one face holds no two
        // colours and at most one star's symbol.
        let singles = if roomy.is_empty() {
            pieces.and_not(&linked)
        } else {
            Bits::empty()
        };
        let seeds = region
            .and(&fm.colored_squares_stars)
            .and(&linked)
            .or(&pieces.and_not(&singles))
            .or(&roomy);
        if few_stars {
            // A flood per square colour, not one per part.
            return !fm.parts_mix_squares(&seeds, stuck);
        }
        // Faces the parts with pieces have beyond their pieces' area, and
        // area their pieces have beyond their faces (a one-face part with
        // a piece of size k has k - 1 over).
        let (mut short, mut over) = (0, fm.area(&singles) - singles.count());
        // The parts with pieces, which placements inside the region must
        // cover.
        let mut need = singles;
        let parts_ok = self.parts_of(seeds, stuck, |part| {
            // A part the line can no longer cut ends up whole in one region,
            // which holds at most the region's pieces.
            // That region is tiled by the pieces, so they cover the part.
            if part.intersects(&pieces) {
                let size = part.count();
                if size > area {
                    return false;
                }
                need = need.or(part);
                let own = fm.area(part);
                short += size.saturating_sub(own);
                over += own.saturating_sub(size);
            }
            !fm.mixed_squares(part)
                && fm
                    .stars
                    .iter()
                    .all(|sc| !part.intersects(&sc.stars) || part.and(&sc.all).count() <= 2)
                && (!part.intersects(&roomy) || self.piece_room_ok(part, region, whole_room))
        });
        if !parts_ok {
            return false;
        }
        // Each final region with pieces has as many faces as its pieces'
        // area, so its parts that are short of area are made up by parts
        // with area over. (Far cheaper than the cover test below, and it
        // cuts far more often: it goes first.)
        if short > over {
            super::inspect::note(super::inspect::CUT_AREA);
            return false;
        }
        // Each kind of piece standing in the region needs a placement
        // inside it, and those placements must cover the parts above.
        if area > 0 {
            // Once the search is no longer small, the region's whole cover,
            // kept: it holds `need` exactly when the cover that stops once
            // `need` is covered does.
            let cover = if self.visited >= self.plan.memo_after {
                let mut covers = self.kept.covers.borrow_mut();
                covers.get(region).unwrap_or_else(|| {
                    let cover = fm.piece_cover(region);
                    covers.put(*region, cover);
                    cover
                })
            } else {
                fm.piece_cover_of(region, &need)
            };
            match cover {
                Some(cover) if need.and_not(&cover).is_empty() => {}
                _ => return false,
            }
        }
        // The pieces must also fit in it all at once, covering those parts.
        // With as many faces as its pieces have area, every final region
        // holds pieces, so they tile the whole region (across what may
        // become walls too: that only allows more).
        let whole = area == region.count() && fm.tileable(region);
        let ok = area == 0 || self.packs_cached(region, &need, stuck, whole);
        if !ok {
            super::inspect::note(super::inspect::CUT_PIECES);
        }
        ok
    }
}
