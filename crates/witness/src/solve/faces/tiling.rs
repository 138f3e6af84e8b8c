//! Pieces in a region: the faces their placements cover, whether they can
//! all be placed at once ([`FaceMasks::packs`]) or tile it exactly
//! ([`FaceMasks::tiles`]), and the pieces that must go for the area.

use super::*;

impl<const N: usize> FaceMasks<N> {
    /// The faces of `region` that some placement inside it, of a kind of
    /// piece standing in it, covers; `None` when some such kind has no
    /// placement inside it. Each piece's final region, a part of this one,
    /// is tiled by pieces of this region, that piece among them.
    pub fn piece_cover(&self, region: &Bits<N>) -> Option<Bits<N>> {
        self.piece_cover_of(region, region)
    }

    /// [`FaceMasks::piece_cover`], stopping as soon as the cover holds
    /// `need` (it then has at least `need`, and still `None` exactly when
    /// some kind has no placement inside the region). Off pillars all the
    /// placements of an orientation are taken at once: the corners where it
    /// fits inside the region are those where it fits on the board and
    /// whose every face, moved back by its offset, is in the region, and
    /// their faces are those corners moved by each offset (a shift and an
    /// AND or OR a face of the piece, far fewer operations than an AND a
    /// placement).
    pub fn piece_cover_of(&self, region: &Bits<N>, need: &Bits<N>) -> Option<Bits<N>> {
        self.cover_by(region, need, |_, k| k.at.intersects(region))
    }

    /// [`FaceMasks::piece_cover_of`] for the kinds of piece `kind` picks
    /// (by index and placements) instead of those standing in `region`.
    #[inline]
    fn cover_by(
        &self,
        region: &Bits<N>,
        need: &Bits<N>,
        kind: impl Fn(usize, &PiecePlaces<N>) -> bool,
    ) -> Option<Bits<N>> {
        let mut cover = Bits::empty();
        let mut done = false;
        for (i, k) in self.placements.iter().enumerate() {
            if !kind(i, k) {
                continue;
            }
            if !k.shifts.is_empty() {
                let mut any = false;
                for (corners, offsets) in &k.shifts {
                    let mut at = *corners;
                    for &o in offsets {
                        at = at.and(&region.shr(o));
                        if at.is_empty() {
                            break;
                        }
                    }
                    if at.is_empty() {
                        continue;
                    }
                    any = true;
                    if done {
                        break;
                    }
                    for &o in offsets {
                        cover = cover.or(&at.shl(o));
                    }
                    done = need.and_not(&cover).is_empty();
                }
                if !any {
                    return None;
                }
                continue;
            }
            let mut any = false;
            for pl in &k.places {
                if pl.and_not(region).is_empty() {
                    any = true;
                    if done {
                        break;
                    }
                    cover = cover.or(pl);
                    if need.and_not(&cover).is_empty() {
                        done = true;
                        break;
                    }
                }
            }
            if !any {
                return None;
            }
        }
        Some(cover)
    }

    /// Whether the pieces standing in `region` (none subtractive) can all
    /// be placed inside it without overlap, covering `need` and, once a
    /// placement touches a part that `stuck` joins, that whole part. Each
    /// final region with pieces is a part of `region` tiled by its own
    /// pieces, and the tilings of different final regions do not overlap;
    /// a part the line can no longer cut lies whole in one final region,
    /// covered when it holds a piece or any covered face; and each part of
    /// the faces covered holds the pieces placed in it
    /// ([`FaceMasks::groups_hold`]). Gives up (true)
    /// once its search has taken `steps` steps (one per choice point, the
    /// first included), and when the region holds more than 16 kinds of
    /// piece. `found` gets the packing; `work` counts the placements
    /// checked.
    pub fn packs(
        &self,
        region: &Bits<N>,
        need: &Bits<N>,
        stuck: &StuckParts<N>,
        steps: &mut u32,
        found: &mut Vec<(u16, u32)>,
        work: &mut u64,
    ) -> bool {
        found.clear();
        let mut left = [(0u16, 0u8, 0u32); 16];
        let mut n = 0;
        let mut rest = 0;
        for (k, kind) in self.placements.iter().enumerate() {
            let here = kind.at.and(region).count();
            if here == 0 {
                continue;
            }
            if n == left.len() || here > u8::MAX as u32 {
                return true;
            }
            left[n] = (k as u16, here as u8, 0);
            rest += here * kind.size;
            n += 1;
        }
        // Largest pieces first: they have the fewest placements.
        left[..n]
            .sort_unstable_by_key(|&(k, _, _)| std::cmp::Reverse(self.placements[k as usize].size));
        self.pack(
            region,
            need,
            &Bits::empty(),
            stuck,
            &mut left[..n],
            rest,
            steps,
            found,
            work,
        )
    }

    /// Whether `region` holds pieces, all of positive size and none
    /// subtractive: those [`FaceMasks::tiles`] can tile it with.
    pub fn tileable(&self, region: &Bits<N>) -> bool {
        let pieces = region.and(&self.any_poly);
        !pieces.is_empty() && pieces.and_not(&self.sized_polys).is_empty()
    }

    /// Whether the pieces standing in `region` (none subtractive, of
    /// positive size, as many faces in all as it has) tile it exactly,
    /// each piece at one of its placements. The faces are tiled in index
    /// order: the lowest face left must be the first face of some piece's
    /// placement inside the faces left. Verdicts on the faces and pieces
    /// left are kept in `memo` (they hold for any region). `None` when the
    /// board has more than 16 kinds of piece or the region more than 255
    /// of one kind, or when `steps` steps (one per piece placed, verdicts
    /// kept taking none) are not enough.
    pub fn tiles(&self, region: &Bits<N>, steps: &mut u32, memo: &mut TileMemo<N>) -> Option<bool> {
        if self.placements.len() > 16 {
            return None;
        }
        let mut left = 0u128;
        for (k, kind) in self.placements.iter().enumerate() {
            let here = kind.at.and(region).count();
            if here > u32::from(u8::MAX) {
                return None;
            }
            left |= u128::from(here) << (8 * k);
        }
        self.tile(region, left, steps, memo)
    }

    /// One step of [`FaceMasks::tiles`]: `free` the faces left, `left` the
    /// pieces left; `None` once the steps have run out.
    pub(super) fn tile(
        &self,
        free: &Bits<N>,
        left: u128,
        steps: &mut u32,
        memo: &mut TileMemo<N>,
    ) -> Option<bool> {
        let Some(f) = free.first() else {
            return Some(true);
        };
        let key = (*free, left);
        if let Some(ok) = memo.get(&key) {
            return Some(ok);
        }
        *steps = steps.checked_sub(1)?;
        if free.count() >= COVER_CHECK_FACES && !self.left_cover(free, left) {
            memo.put(key, false);
            return Some(false);
        }
        let kinds = self.placements.len();
        let runs = &self.anchors[f * kinds..=(f + 1) * kinds];
        // The kinds left: bit 8k set when byte k of `left` is not 0.
        let mut some = left | left >> 4;
        some |= some >> 2;
        some |= some >> 1;
        some &= LOW_BITS;
        while some != 0 {
            let k = some.trailing_zeros() as usize / 8;
            some &= some - 1;
            for pl in &self.anchor_places[runs[k] as usize..runs[k + 1] as usize] {
                if pl.and_not(free).is_empty()
                    && self.tile(&free.and_not(pl), left - (1 << (8 * k)), steps, memo)?
                {
                    memo.put(key, true);
                    return Some(true);
                }
            }
        }
        memo.put(key, false);
        Some(false)
    }

    /// Whether the pieces `left` (a count in each byte, by kind) could
    /// still tile `free`: each kind left has a placement inside `free`,
    /// and every face of `free` lies in a placement inside it of some
    /// kind left. A tiling of `free` by those pieces places each of them
    /// inside `free` and covers each of its faces with one of them, so a
    /// "no" here is the tiling's own "no"; it only finds it without
    /// trying the placements one by one (a face that no placement left
    /// inside `free` covers, such as one in a hole too small for the
    /// pieces left, would otherwise be found only once the scan reaches
    /// it, after every way of tiling the faces before it).
    pub(super) fn left_cover(&self, free: &Bits<N>, left: u128) -> bool {
        let any = |k: usize| (left >> (8 * k)) & 0xFF != 0;
        matches!(
            self.cover_by(free, free, |k, _| any(k)),
            Some(cover) if free.and_not(&cover).is_empty()
        )
    }

    /// Whether `packing` (placements by kind and index, of the pieces
    /// standing in `region`, not overlapping) is still a packing
    /// [`FaceMasks::packs`] looks for, with `need` closed under `stuck`
    /// (the links inside the region): inside the region, covering `need`,
    /// no link of `stuck` between a face it covers and one it does not,
    /// and its parts holding the pieces placed in them
    /// ([`FaceMasks::groups_hold`]).
    pub fn packing_holds(
        &self,
        region: &Bits<N>,
        need: &Bits<N>,
        stuck: &Links<N>,
        packing: &[(u16, u32)],
    ) -> bool {
        let mut used = Bits::empty();
        for &(k, i) in packing {
            let pl = &self.placements[k as usize].places[i as usize];
            if !pl.and_not(region).is_empty() {
                return false;
            }
            used = used.or(pl);
        }
        if !need.and_not(&used).is_empty() {
            return false;
        }
        let nc = self.ncols;
        let cross = |links: &Bits<N>, other: Bits<N>| links.and(&used.xor(&other)).is_empty();
        cross(&stuck.right, used.shr(1))
            && cross(&stuck.down, used.shr(nc))
            && (!self.pillar || cross(&stuck.wrap, used.shl(nc - 1)))
            && self.groups_hold(&used, packing)
    }

    /// Whether a packing (placements by kind and index, not overlapping,
    /// covering every piece standing in the faces they cover, `used`)
    /// could be the final regions' tilings: every placement lies in one
    /// part of `used` (faces joined by side), and each part holds as many
    /// pieces of each kind as placements of that kind.
    ///
    /// Why no solution fails it: the final regions with pieces are exactly
    /// the faces their tilings cover, so each such region is a set of
    /// faces of `used` joined across sides, and lies whole in one part. A
    /// part is thus made of whole final regions, each tiled by its own
    /// pieces, one placement per piece standing in it: the part holds a
    /// placement for each of its pieces and no other. On boards with
    /// removed faces regions also join through the rim, not only across
    /// sides: there it passes.
    pub fn groups_hold(&self, used: &Bits<N>, packing: &[(u16, u32)]) -> bool {
        if !self.exact {
            return true;
        }
        let nc = self.ncols;
        let inside = Links {
            right: self.links.right.and(used).and(&used.shr(1)),
            down: self.links.down.and(used).and(&used.shr(nc)),
            wrap: if self.pillar {
                self.links.wrap.and(used).and(&used.shl(nc - 1))
            } else {
                Bits::empty()
            },
        };
        let mut rest = *used;
        while let Some(f) = rest.first() {
            let mut seed = Bits::empty();
            seed.set(f);
            let part = self.flood(seed, &inside);
            rest = rest.and_not(&part);
            if part == *used {
                // One part: it holds every piece and every placement.
                return true;
            }
            for (k, kind) in self.placements.iter().enumerate() {
                let mut placed = 0;
                for &(pk, at) in packing {
                    if pk as usize != k {
                        continue;
                    }
                    let pl = &kind.places[at as usize];
                    if pl.intersects(&part) {
                        if !pl.and_not(&part).is_empty() {
                            return false;
                        }
                        placed += 1;
                    }
                }
                if placed != kind.at.and(&part).count() {
                    return false;
                }
            }
        }
        true
    }

    /// One step of [`FaceMasks::packs`]: `used` holds the faces placed so
    /// far, `left` the pieces still to place by kind (and the lowest
    /// placement index the next one of the kind may take where no face
    /// needs it: pieces of a kind are alike, so they go in index order
    /// there), `rest` their area.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pack(
        &self,
        region: &Bits<N>,
        need: &Bits<N>,
        used: &Bits<N>,
        stuck: &StuckParts<N>,
        left: &mut [(u16, u8, u32)],
        rest: u32,
        steps: &mut u32,
        found: &mut Vec<(u16, u32)>,
        work: &mut u64,
    ) -> bool {
        let mut need = stuck.close(self, &need.or(used));
        if rest == 0 {
            return need.and_not(used).is_empty() && self.groups_hold(used, found);
        }
        if *steps == 0 {
            return true;
        }
        *steps -= 1;
        let free = region.and_not(used);
        let room = free.count();
        if room < rest {
            return false;
        }
        let fits = |pl: &Bits<N>| pl.and_not(&free).is_empty();
        if room <= rest + TIGHT {
            // Little room to spare: the free faces no piece left can cover
            // stay uncovered, and only as many as the pieces leave room
            // for may. With none to spare, every other face must be.
            let mut cover = Bits::<N>::empty();
            for &(k, count, _) in left.iter() {
                if count > 0 {
                    *work += self.placements[k as usize].places.len() as u64;
                    for pl in &self.placements[k as usize].places {
                        if fits(pl) {
                            cover = cover.or(pl);
                        }
                    }
                }
            }
            let bare = free.and_not(&cover).count();
            if bare > room - rest || !need.and_not(used).and_not(&cover).is_empty() {
                return false;
            }
            if bare == room - rest {
                need = need.or(&cover);
            }
        }
        let mut open = need.and_not(used);
        if open.count() > rest {
            return false;
        }
        // The needed face with the fewest placements left to cover it (of
        // the first few).
        let mut target = None;
        let mut best = u32::MAX;
        let mut looked = 0;
        while let Some(t) = open.first() {
            open.clear(t);
            let mut n = 0;
            'count: for &(k, count, _) in left.iter() {
                if count == 0 {
                    continue;
                }
                let kind = &self.placements[k as usize];
                *work += kind.holding[t].len() as u64;
                for &at in &kind.holding[t] {
                    if fits(&kind.places[at as usize]) {
                        n += 1;
                        if n >= best {
                            break 'count;
                        }
                    }
                }
            }
            if n < best {
                best = n;
                target = Some(t);
                if n <= 1 {
                    break;
                }
            }
            looked += 1;
            if looked == MRV_LOOK {
                break;
            }
        }
        if best == 0 {
            return false;
        }
        for i in 0..left.len() {
            let (k, count, floor) = left[i];
            if count == 0 {
                continue;
            }
            let kind = &self.placements[k as usize];
            let size = kind.size;
            let (list, all): (&[u32], bool) = match target {
                Some(t) => (&kind.holding[t], false),
                None => (&[], true),
            };
            let total = if all { kind.places.len() } else { list.len() };
            let from = if all { floor as usize } else { 0 };
            *work += (total - from.min(total)) as u64;
            for j in from..total {
                let at = if all { j as u32 } else { list[j] };
                let pl = &kind.places[at as usize];
                if !fits(pl) {
                    continue;
                }
                left[i].1 -= 1;
                if all {
                    left[i].2 = at + 1;
                }
                found.push((k, at));
                let ok = self.pack(
                    region,
                    &need,
                    &used.or(pl),
                    stuck,
                    left,
                    rest - size,
                    steps,
                    found,
                    work,
                );
                left[i].1 += 1;
                left[i].2 = floor;
                if ok {
                    return true;
                }
                found.pop();
            }
            if all {
                // Every piece must go somewhere: the first one left decides.
                return false;
            }
        }
        false
    }

    /// The fewest pieces of `region` to take away (with elimination marks)
    /// before the rest could tile a part of it: every piece of a kind with
    /// no placement inside it, then the largest pieces until the others
    /// fit in its area. Only for regions without subtractive pieces.
    pub fn pieces_in_excess(&self, region: &Bits<N>) -> u32 {
        let room = region.count();
        let mut area = self.area(region);
        let mut taken = 0;
        // Sizes of the pieces that might stay, largest first.
        let mut kept = [(0u32, 0u32); 16];
        let mut nkept = 0;
        for k in &self.placements {
            let here = k.at.and(region).count();
            if here == 0 {
                continue;
            }
            if k.places.iter().all(|pl| !pl.and_not(region).is_empty()) {
                taken += here;
                area -= here * k.size;
            } else if nkept < kept.len() {
                kept[nkept] = (k.size, here);
                nkept += 1;
            } else {
                // Too many kinds to sort here: no more than a lower bound.
                return taken;
            }
        }
        if area <= room {
            return taken;
        }
        let kept = &mut kept[..nkept];
        kept.sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
        for &(size, here) in kept.iter() {
            for _ in 0..here {
                area -= size;
                taken += 1;
                if area <= room {
                    return taken;
                }
            }
        }
        taken
    }

    /// In a final region (one the line can no longer change), the fewest
    /// pieces, subtractive or not, that elimination marks must take away before
    /// the fit's area rule can hold for the rest (`docs/rules.md#polyominoes`):
    /// none left, or a net area of 0 (the rest may cancel out), or a net area
    /// equal to the region's. Pieces of size 0 are left out (keeping or taking
    /// one costs nothing here), so this is a lower bound. Only a bound of 0
    /// when the sizes are too many or too large to tally.
    pub fn final_pieces_in_excess(&self, region: &Bits<N>) -> u32 {
        // reach[v] = the most pieces kept with net area v - OFFSET, or -1.
        const SPAN: usize = 256;
        const OFFSET: i32 = 128;
        let mut reach = [-1i16; SPAN];
        reach[OFFSET as usize] = 0;
        // The net areas reached so far lie in lo..hi.
        let (mut lo, mut hi) = (OFFSET as usize, OFFSET as usize + 1);
        let mut total = 0u32;
        let sized = self
            .polys
            .iter()
            .map(|&(size, ref set)| (size as i32, set))
            .chain(
                self.ylop_sizes
                    .iter()
                    .map(|&(size, ref set)| (-(size as i32), set)),
            );
        for (size, set) in sized {
            let here = region.and(set).count();
            if here == 0 || size == 0 {
                continue;
            }
            if size.unsigned_abs() as usize >= SPAN / 2 {
                return 0;
            }
            for _ in 0..here {
                total += 1;
                let (from, to) = (lo as i32 + size, hi as i32 + size);
                if from < 0 || to > SPAN as i32 {
                    return 0;
                }
                // Each piece once: walk away from where it adds to.
                let step = |v: usize, reach: &mut [i16; SPAN]| {
                    let kept = reach[v];
                    if kept >= 0 {
                        let w = (v as i32 + size) as usize;
                        reach[w] = reach[w].max(kept + 1);
                    }
                };
                if size > 0 {
                    (lo..hi).rev().for_each(|v| step(v, &mut reach));
                } else {
                    (lo..hi).for_each(|v| step(v, &mut reach));
                }
                lo = lo.min(from as usize);
                hi = hi.max(to as usize);
            }
        }
        let room = region.count() as i32;
        let mut best = reach[OFFSET as usize].max(0);
        if room < OFFSET {
            best = best.max(reach[(OFFSET + room) as usize]);
        } else {
            return 0;
        }
        total - best as u32
    }
}

/// The fewest faces left for a step of [`FaceMasks::tiles`] to run
/// [`FaceMasks::left_cover`] first: below, the scan settles the rest in a
/// few placements, for less than the check costs.
const COVER_CHECK_FACES: u32 = 6;

/// How many faces to spare, at most, for [`FaceMasks::packs`] to look for
/// faces no piece left can cover.
const TIGHT: u32 = 4;

/// How many needed faces [`FaceMasks::packs`] compares to choose the one
/// to cover next.
const MRV_LOOK: u32 = 8;

/// The parts of a region that links the line can no longer cut join,
/// those of more than one face, for [`FaceMasks::packs`]: the faces in one
/// lie in one final region.
pub struct StuckParts<const N: usize> {
    /// The parts (the first `n`).
    parts: [Bits<N>; 24],
    n: usize,
    /// The links inside the region, flooded over when there are more
    /// parts than that.
    pub links: Links<N>,
}

impl<const N: usize> StuckParts<N> {
    /// The parts `links` (links inside a region) join.
    pub fn new(fm: &FaceMasks<N>, links: Links<N>) -> Self {
        // Faces with a link: at the start of one or at the end.
        let from = links.right.or(&links.down).or(&links.wrap);
        let nc = fm.ncols;
        let mut ends = links.right.shl(1).or(&links.down.shl(nc));
        if fm.pillar {
            ends = ends.or(&links.wrap.shr(nc - 1));
        }
        let mut seeds = from.or(&ends);
        let mut out = StuckParts {
            parts: [Bits::empty(); 24],
            n: 0,
            links,
        };
        while let Some(f) = seeds.first() {
            let mut seed = Bits::empty();
            seed.set(f);
            let part = fm.flood(seed, &out.links);
            seeds = seeds.and_not(&part);
            if out.n == out.parts.len() {
                out.n = usize::MAX;
                break;
            }
            out.parts[out.n] = part;
            out.n += 1;
        }
        out
    }

    /// `x` with every part it touches.
    #[inline]
    pub fn close(&self, fm: &FaceMasks<N>, x: &Bits<N>) -> Bits<N> {
        if self.n == usize::MAX {
            return fm.flood(*x, &self.links);
        }
        let mut out = *x;
        for part in &self.parts[..self.n] {
            if part.intersects(x) {
                out = out.or(part);
            }
        }
        out
    }
}
