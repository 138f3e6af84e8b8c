//! Room for the pieces: whether an open region's parts leave each piece
//! room, and whether its pieces can all be placed at once ([`FaceMasks::packs`]),
//! with the verdicts kept and the budget the test's cuts earn.

use super::*;

impl<'p, const N: usize> Search<'p, N> {
    /// False when `part` (faces the line can no longer part, holding a
    /// piece, subtractive or not, in the open `region`, whose pieces have
    /// an area of `whole` and subtractive ones of `whole_neg`) can grow
    /// into no final region its pieces pass in (`docs/rules.md#polyominoes`).
    ///
    /// That final region holds `part` and lies in `region`, and holds no
    /// elimination mark; so no square of another colour than the part's,
    /// and nothing more of the colour of a star the part already pairs
    /// up. Its pieces have a net area of 0, or of its own size:
    /// - of 0: the part's pieces must be outweighed by subtractive ones
    ///   it can reach, and the other way round (tested on the whole region
    ///   first, which is cheap and usually passes);
    /// - of its size: it must reach, beyond the part, pieces enough to
    ///   make up its size, and reaching a piece `d` faces away takes at
    ///   least `d` faces more. A flood from the part, a ring of faces at a
    ///   time, stops as soon as what it has reached would do.
    ///
    /// Only on boards without removed faces (theirs also join through the
    /// rim), and with subtractive pieces: on other boards the parts' own
    /// area tests ([`Search::open_region_ok`]) cut nearly as much, for
    /// less.
    pub(super) fn piece_room_ok(
        &self,
        part: &Bits<N>,
        region: &Bits<N>,
        whole: (u32, u32),
    ) -> bool {
        let fm = &self.fm;
        let (pos, neg) = (fm.area(part) as i64, fm.ylop_area(part) as i64);
        let size = i64::from(part.count());
        if size <= pos - neg {
            return true;
        }
        let (whole_pos, whole_neg) = whole;
        if pos <= i64::from(whole_neg) && neg <= i64::from(whole_pos) {
            return true;
        }
        let mut blocked = Bits::empty();
        if let Some(own) = fm.squares.iter().position(|sq| part.intersects(sq)) {
            for (k, sq) in fm.squares.iter().enumerate() {
                if k != own {
                    blocked = blocked.or(sq);
                }
            }
        }
        for sc in &fm.stars {
            if part.intersects(&sc.stars) && part.and(&sc.all).count() >= 2 {
                blocked = blocked.or(&sc.all);
            }
        }
        let allowed = region.and_not(&blocked).or(part);
        let (mut cur, mut d, mut gain) = (*part, 0, 0);
        loop {
            let next = fm.step(&cur, &self.links).and(&allowed);
            if next == cur {
                break;
            }
            d += 1;
            gain += fm.area(&next.and_not(&cur)) as i64;
            if size + d <= pos - neg + gain {
                return true;
            }
            cur = next;
        }
        pos <= fm.ylop_area(&cur) as i64 && neg <= fm.area(&cur) as i64
    }

    /// Hands `each` the parts `stuck` joins that hold a face of `seeds`
    /// (a flood from the first seed left, whose part then leaves the
    /// seeds) until it returns false (then false). A flood starts from a
    /// part found above on this branch where one holds its seed
    /// ([`PartHints`]); the parts are kept for the nodes below.
    pub(super) fn parts_of(
        &self,
        mut seeds: Bits<N>,
        stuck: &Links<N>,
        mut each: impl FnMut(&Bits<N>) -> bool,
    ) -> bool {
        if seeds.is_empty() {
            return true;
        }
        let fm = &self.fm;
        let mut hints = self.kept.part_hints.borrow_mut();
        let depth = self.moves.len();
        if hints.at.len() <= depth {
            hints.at.resize(depth + 1, PartRecord::default());
        }
        let (above, here) = hints.at.split_at_mut(depth);
        let rec = &mut here[0];
        if rec.stamp != self.visited {
            rec.stamp = self.visited;
            rec.stuck = *stuck;
            rec.n = 0;
        }
        // The nearest node above (two slots up: a node, then an edge).
        let from = above
            .len()
            .checked_sub(2)
            .map(|k| &above[k])
            .filter(|r| r.within(stuck));
        while let Some(f) = seeds.first() {
            let mut one = Bits::empty();
            one.set(f);
            let hint = from.and_then(|r| r.parts[..r.n].iter().find(|p| p.get(f)));
            let part = fm.flood(*hint.unwrap_or(&one), stuck);
            debug_assert!(
                hint.is_none() || fm.flood(one, stuck) == part,
                "a part from above floods as its face does"
            );
            seeds = seeds.and_not(&part);
            if rec.n < PART_HINTS && part.count() > 1 {
                rec.parts[rec.n] = part;
                rec.n += 1;
            }
            if !each(&part) {
                return false;
            }
        }
        true
    }

    /// [`FaceMasks::packs`] for an open region, with `need` the parts
    /// holding its pieces, within the test's budget (see [`Packings`]):
    /// when its pieces must tile it `whole`, first the tiling
    /// ([`Search::tile_within`], up to [`OPEN_TILE_STEPS`] steps); then a
    /// recent packing of the same pieces that still holds answers at
    /// once, then the verdicts kept by the region and the links inside it
    /// the line can no longer cut (which decide it). True (the region
    /// passes) when the budget is spent or the test gives up.
    pub(super) fn packs_cached(
        &self,
        region: &Bits<N>,
        need: &Bits<N>,
        stuck: &Links<N>,
        whole: bool,
    ) -> bool {
        #[cfg(feature = "pack-stats")]
        let t0 = std::time::Instant::now();
        let verdict = self.packs_tested(region, need, stuck, whole);
        #[cfg(feature = "pack-stats")]
        pack_stats::note_test(verdict, t0);
        verdict.unwrap_or(true)
    }

    /// [`Search::packs_cached`]'s verdict, `None` when the region goes
    /// untested (the budget spent, or on the way to a resume point).
    fn packs_tested(
        &self,
        region: &Bits<N>,
        need: &Bits<N>,
        stuck: &Links<N>,
        whole: bool,
    ) -> Option<bool> {
        // On the way back to a resume point the nodes passed before; with
        // the budget spent then, the test may not have run there.
        if !self.packing || self.turn.replay_to > self.moves.len() {
            return None;
        }
        let mut cache = self.kept.packings.borrow_mut();
        let earned = self.visited / PACK_NODES_PER_UNIT + cache.saved + PACK_START_UNITS;
        if cache.spent >= earned && self.caps.budgeted {
            return None;
        }
        // A region its pieces must tile whole: the tiling's kept verdicts
        // (by the region alone) answer most often, so they come first.
        if whole {
            let before = self.tile_steps.get();
            let tiles = self.tile_within(region, self.caps.open_tile_steps);
            cache.spent += (self.tile_steps.get() - before).div_ceil(TILE_STEPS_PER_UNIT);
            if let Some(ok) = tiles {
                if !ok {
                    cache.saved += self.cut_saves();
                }
                return Some(ok);
            }
        }
        let fm = &self.fm;
        let pieces = region.and(&fm.sized_polys);
        let inside = Links {
            right: stuck.right.and(region),
            down: stuck.down.and(region),
            wrap: stuck.wrap.and(region),
        };
        if cache
            .recent
            .iter()
            .any(|(p, w)| *p == pieces && fm.packing_holds(region, need, &inside, w))
        {
            return Some(true);
        }
        let key = (*region, inside);
        if let Some(ok) = cache.verdicts.get(&key) {
            return Some(ok);
        }
        let parts = StuckParts::new(fm, inside);
        let cap = self.caps.pack_steps;
        let mut steps = cap;
        let mut work = 0;
        let mut found = std::mem::take(&mut cache.found);
        let ok = fm.packs(region, need, &parts, &mut steps, &mut found, &mut work);
        cache.spent += work / PACK_WORK_PER_UNIT + 1;
        #[cfg(feature = "pack-stats")]
        pack_stats::note_packs(work, cap - steps, steps == 0);
        if !ok {
            cache.saved += self.cut_saves();
        } else if steps > 0 && !found.is_empty() {
            // A packing it found (not one it gave up on).
            let k = cache.next;
            if cache.recent.len() < RECENT_PACKINGS {
                cache.recent.push((pieces, found.clone()));
            } else {
                cache.recent[k] = (pieces, found.clone());
            }
            cache.next = (k + 1) % RECENT_PACKINGS;
        }
        cache.found = found;
        cache.verdicts.put(key, ok);
        Some(ok)
    }

    /// What a packing test's cut here saves: the mean size of the
    /// subtrees searched to the end at this depth (16 before there is one).
    pub(super) fn cut_saves(&self) -> u64 {
        let (sum, n) = self.sizes[self.moves.len().min(DEPTHS - 1)];
        sum.checked_div(n).unwrap_or(16)
    }

    /// The links the line can no longer cut ([`FaceMasks::stuck`]); covered
    /// start edges joined for now may still turn into walls, so they are
    /// left out.
    pub(super) fn stuck_links(&self, reach: &Bits<N>) -> Links<N> {
        self.fm.stuck(&self.links_walled(), reach)
    }

    /// The face links with every covered start edge a wall (as it is
    /// covered), whatever it joins for now.
    pub(super) fn links_walled(&self) -> Links<N> {
        let mut links = self.links;
        for &(link, _) in &self.half_walls {
            links.put(link, false);
        }
        links
    }

    /// The mid-segment start the regions pass through (not a wall), or
    /// `usize::MAX` when the start is a node or FAT_STARTPOINTS is set.
    #[inline]
    pub(super) fn noncount(&self) -> usize {
        let b = &self.plan.rules.board;
        if b.kind[self.start] == SlotKind::Edge && !b.fat_startpoints {
            self.start
        } else {
            usize::MAX
        }
    }
}

/// Counters of the packing test (`Search::packs_cached`) over every
/// search of the process, for measurement only (the `pack-stats`
/// feature): what one test costs against one search node.
#[cfg(feature = "pack-stats")]
pub mod pack_stats {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    /// The counters, as [`take`] reads them.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct PackStats {
        /// Regions let pass untested (the budget spent, or on the way to
        /// a resume point).
        pub untested: u64,
        /// Tests run: answered by the tiling, a recent packing, a kept
        /// verdict or a packing search.
        pub tested: u64,
        /// Tests that failed the region (cuts).
        pub cuts: u64,
        /// Nanoseconds spent in the tests run.
        pub nanos: u64,
        /// Packing searches run ([`crate::solve::faces::FaceMasks::packs`]).
        pub packs: u64,
        /// Their placement checks (the work the budget bills).
        pub work: u64,
        /// Their steps.
        pub steps: u64,
        /// Packing searches that ran out of steps.
        pub gave_up: u64,
    }

    static COUNTS: [AtomicU64; 8] = [const { AtomicU64::new(0) }; 8];

    fn add(i: usize, v: u64) {
        COUNTS[i].fetch_add(v, Relaxed);
    }

    /// Counts one region's test: its verdict (`None`: untested) and when
    /// it began.
    pub(super) fn note_test(verdict: Option<bool>, t0: std::time::Instant) {
        match verdict {
            None => add(0, 1),
            Some(ok) => {
                add(1, 1);
                add(2, u64::from(!ok));
                add(3, t0.elapsed().as_nanos() as u64);
            }
        }
    }

    /// Counts one packing search: its work, steps, and whether it gave up.
    pub(super) fn note_packs(work: u64, steps: u32, gave_up: bool) {
        add(4, 1);
        add(5, work);
        add(6, u64::from(steps));
        add(7, u64::from(gave_up));
    }

    /// The counters since the last call, set back to 0.
    pub fn take() -> PackStats {
        let c = |i: usize| COUNTS[i].swap(0, Relaxed);
        PackStats {
            untested: c(0),
            tested: c(1),
            cuts: c(2),
            nanos: c(3),
            packs: c(4),
            work: c(5),
            steps: c(6),
            gave_up: c(7),
        }
    }
}
