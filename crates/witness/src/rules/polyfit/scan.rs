//! The exact fit: a scan over the region's faces in order, placing pieces
//! on the first face not settled yet, with the budgets, needs and memo the
//! module's documentation describes ([`fits`]).

use super::*;

/// Decides whether the pieces fit. `region` lists the region's slots (used
/// when the pieces must tile it); `region_faces` is its face count.
/// `polys_area` and `ylops_area` are the total sizes. Zero-size pieces are
/// not passed here: the caller applies their rule.
///
/// With limits set in `fs`, a fit that runs past them answers `true` and
/// marks `fs` as interrupted.
#[allow(clippy::too_many_arguments)]
pub fn fits<'a>(
    g: &'a Geometry,
    b: &'a Board,
    region: &[u32],
    region_faces: usize,
    kinds: &mut [PieceKind<'a>],
    polys_area: usize,
    ylops_area: usize,
    fs: &mut FitScratch,
) -> bool {
    fs.last_interrupted = false;
    fs.last_steps = 0;
    let net = polys_area as isize - ylops_area as isize;
    if net < 0 || (net > 0 && net as usize != region_faces) {
        return false;
    }
    if fs.interrupted && fs.limits.is_set() && fs.limits.expired() {
        fs.last_interrupted = true;
        return true;
    }
    let mut val = std::mem::take(&mut fs.val);
    val.clear();
    val.resize(b.len(), 0);
    let hv = if net > 0 {
        start_board(g, &mut val, region)
    } else {
        [0; 2]
    };
    let mut memo = std::mem::take(&mut fs.memo);
    let mut search = Search::new(g, &mut val, hv, kinds, &mut memo, &fs.limits);
    let found = search.face(0);
    let aborted = search.aborted;
    fs.last_steps = search.steps - 0xFFF;
    fs.total_steps += fs.last_steps;
    if memo.capacity() > 1 << 16 {
        memo = Memo::default(); // give the memory back
    } else {
        memo.clear();
    }
    fs.memo = memo;
    fs.val = val;
    if aborted {
        fs.interrupted = true;
        fs.last_interrupted = true;
        return true;
    }
    found
}

/// Sets the board `B0` of a fit with net area above 0 (−1 on every slot
/// of `region`) on `val`, all 0 before, and returns its part of the state
/// hash: the slots from the first cut on, times their multipliers. Only
/// the region's slots are looked at, not the whole board: most fits are
/// over in a few steps.
pub(super) fn start_board(g: &Geometry, val: &mut [i16], region: &[u32]) -> [u64; 2] {
    let mut hv = [0u64; 2];
    for &s in region {
        let v = &mut val[s as usize];
        if *v == 0 {
            *v = -1;
            if g.rm_pos[s as usize] >= g.cut[0] {
                let m = g.mult[s as usize];
                hv[0] = hv[0].wrapping_sub(m[0]);
                hv[1] = hv[1].wrapping_sub(m[1]);
            }
        }
    }
    hv
}

/// The state of one fit's scan.
pub(super) struct Search<'a, 'k> {
    pub(super) g: &'a Geometry,
    pub(super) val: &'k mut [i16],
    pub(super) kinds: &'k mut [PieceKind<'a>],
    /// `kinds[..n_ylop_kinds]` are the ylops, the rest polys.
    pub(super) n_ylop_kinds: usize,
    pub(super) polys_left: u32,
    pub(super) ylops_left: u32,
    /// The most the remaining polys can raise one slot.
    pub(super) poly_reach: u32,
    /// The most the remaining ylops can lower one slot.
    pub(super) ylop_reach: u32,
    /// The sum of the positive values on faces.
    pub(super) over_faces: u32,
    /// The sum of the positive values on other slots.
    pub(super) over_edges: u32,
    /// The most face values the remaining ylops can lower.
    pub(super) face_cap: u32,
    /// The most other slot values the remaining ylops can lower.
    pub(super) edge_cap: u32,
    /// The state hash without the scan position: the values of the slots
    /// not final yet and the counts, times their multipliers.
    pub(super) hv: [u64; 2],
    pub(super) memo: &'k mut Memo,
    pub(super) steps: u64,
    pub(super) limits: &'k FitLimits,
    pub(super) aborted: bool,
}

impl<'a, 'k> Search<'a, 'k> {
    /// The scan at its start: the board `val` (B0), its part of the state
    /// hash ([`start_board`]) and the pieces.
    pub(super) fn new(
        g: &'a Geometry,
        val: &'k mut [i16],
        mut hv: [u64; 2],
        kinds: &'k mut [PieceKind<'a>],
        memo: &'k mut Memo,
        limits: &'k FitLimits,
    ) -> Search<'a, 'k> {
        // Ylops first: at a face they can only lower the value, polys
        // raise it. Big pieces first: they are the hardest to place; then
        // those with fewer placements.
        kinds.sort_by_key(|k| {
            (
                !k.subtractive,
                std::cmp::Reverse(k.placements.max_faces),
                k.placements.len(),
            )
        });
        let n_ylop_kinds = kinds.iter().take_while(|k| k.subtractive).count();
        let (mut polys_left, mut ylops_left, mut face_cap, mut edge_cap) = (0, 0, 0, 0);
        let (mut poly_reach, mut ylop_reach) = (0, 0);
        for (t, k) in kinds.iter().enumerate() {
            if k.subtractive {
                ylops_left += k.count;
                ylop_reach += k.count * k.placements.max_mult;
                face_cap += k.count * k.placements.max_faces;
                edge_cap += k.count * k.placements.max_edges;
            } else {
                polys_left += k.count;
                poly_reach += k.count * k.placements.max_mult;
            }
            let km = kind_mult(t);
            hv[0] = hv[0].wrapping_add(km[0].wrapping_mul(k.count as u64));
            hv[1] = hv[1].wrapping_add(km[1].wrapping_mul(k.count as u64));
        }
        Search {
            g,
            val,
            kinds,
            n_ylop_kinds,
            polys_left,
            ylops_left,
            poly_reach,
            ylop_reach,
            over_faces: 0,
            over_edges: 0,
            face_cap,
            edge_cap,
            hv,
            memo,
            // The first step already looks at the limits.
            steps: 0xFFF,
            limits,
            aborted: false,
        }
    }
}

impl Search<'_, '_> {
    /// Enters face `k`: every slot before its cut is final and checked, and
    /// every earlier face is 0.
    pub(super) fn face(&mut self, k: usize) -> bool {
        let g = self.g;
        if k == g.faces.len() {
            return self.polys_left == 0 && self.ylops_left == 0;
        }
        if self.polys_left == 0 && self.ylops_left == 0 {
            // Nothing left to place: every face from here on must be 0
            // already, and every other slot <= 0.
            return g.rm_slot[g.cut[k] as usize..].iter().all(|&s| {
                let v = self.val[s as usize];
                v == 0 || (v < 0 && !g.is_face[s as usize])
            });
        }
        let kk = k as u64 + 1;
        let key = (
            self.hv[0].wrapping_add(FACE_MULT[0].wrapping_mul(kk)),
            self.hv[1].wrapping_add(FACE_MULT[1].wrapping_mul(kk)),
        );
        let memo = self.steps >= MEMO_FROM;
        if memo && self.memo.contains(&key) {
            return false;
        }
        // The needs bound pays off in long fits only.
        let found = (!memo || self.needs_ok(k)) && self.at(k, 0, 0);
        if memo && !found && !self.aborted && self.memo.len() < MEMO_CAP {
            self.memo.insert(key);
        }
        found
    }

    /// True when the remaining ylops can lower every positive value now on
    /// the board plus, for every remaining poly, the non-negative slots of
    /// its cheapest placement from face `k` on (faces and other slots
    /// counted apart). Each poly raises those slots above 0 whatever else
    /// happens, and a ylop lowers at most its own footprint.
    pub(super) fn needs_ok(&self, k: usize) -> bool {
        if self.ylops_left == 0 {
            return self.polys_fit_somewhere(k);
        }
        let mut need_f = self.over_faces;
        let mut need_e = self.over_edges;
        for t in &self.kinds[self.n_ylop_kinds..] {
            if t.count == 0 {
                continue;
            }
            let pl = t.placements;
            let (mut mf, mut me) = (u32::MAX, u32::MAX);
            for pi in pl.by_face[k]..pl.len() as u32 {
                let (faces, others) = pl.parts(pi);
                let nonneg = |s: &&u32| self.val[**s as usize] >= 0;
                let a = faces.iter().filter(nonneg).count() as u32;
                let e = others.iter().filter(nonneg).count() as u32;
                mf = mf.min(a);
                me = me.min(e);
                if mf == 0 && me == 0 {
                    break;
                }
            }
            if mf == u32::MAX {
                return false; // it fits nowhere
            }
            need_f += t.count * mf;
            need_e += t.count * me;
            if need_f > self.face_cap || need_e > self.edge_cap {
                return false;
            }
        }
        true
    }

    /// [`Search::needs_ok`] with every ylop placed, when both caps are 0:
    /// true when every remaining poly kind still has a placement from face
    /// `k` on that covers only slots below 0. It stops at the first one
    /// instead of counting every placement's slots.
    pub(super) fn polys_fit_somewhere(&self, k: usize) -> bool {
        self.kinds[self.n_ylop_kinds..].iter().all(|t| {
            let pl = t.placements;
            t.count == 0 || self.any_below_zero(pl, pl.by_face[k]..pl.len() as u32)
        })
    }

    /// True when one of the placements `range` of `pl` covers only slots
    /// below 0: a poly can go there with no ylop to lower it after.
    pub(super) fn any_below_zero(&self, pl: &Placements, range: std::ops::Range<u32>) -> bool {
        range
            .into_iter()
            .any(|pi| pl.slots(pi).iter().all(|&s| self.val[s as usize] < 0))
    }

    /// Moves past face `k` (its value 0): checks the slots that become final
    /// and goes on to face `k + 1`.
    pub(super) fn close(&mut self, k: usize) -> bool {
        let g = self.g;
        let mut dh = [0u64; 2];
        for &s in &g.rm_slot[g.cut[k] as usize..g.cut[k + 1] as usize] {
            let v = self.val[s as usize];
            if v > 0 {
                return false;
            }
            let m = g.mult[s as usize];
            dh[0] = dh[0].wrapping_add(m[0].wrapping_mul(v as i64 as u64));
            dh[1] = dh[1].wrapping_add(m[1].wrapping_mul(v as i64 as u64));
        }
        self.hv[0] = self.hv[0].wrapping_sub(dh[0]);
        self.hv[1] = self.hv[1].wrapping_sub(dh[1]);
        let found = self.face(k + 1);
        self.hv[0] = self.hv[0].wrapping_add(dh[0]);
        self.hv[1] = self.hv[1].wrapping_add(dh[1]);
        found
    }

    /// How much the remaining ylops could still lower slot `s` from faces
    /// after face `k`.
    pub(super) fn ylops_after(&self, s: u32, k: usize) -> u32 {
        self.kinds[..self.n_ylop_kinds]
            .iter()
            .filter(|t| t.count > 0 && t.placements.last_cover[s as usize] > k as i32)
            .map(|t| t.count * t.placements.max_mult)
            .sum()
    }

    /// How much the remaining polys could still raise slot `s` from face
    /// `k` on.
    pub(super) fn polys_from(&self, s: u32, k: usize) -> u32 {
        self.kinds[self.n_ylop_kinds..]
            .iter()
            .filter(|t| t.count > 0 && t.placements.last_cover[s as usize] >= k as i32)
            .map(|t| t.count * t.placements.max_mult)
            .sum()
    }

    /// True when placement `pi` of kind `tt` at face `k` leaves the board
    /// repairable: a poly raises no slot beyond what later ylops can lower,
    /// a ylop lowers no face beyond what polys can fill.
    pub(super) fn placeable(&self, tt: usize, pi: u32, k: usize) -> bool {
        let pl = self.kinds[tt].placements;
        if tt >= self.n_ylop_kinds {
            for &s in pl.slots(pi) {
                let nv = self.val[s as usize] + 1;
                if nv > 0 && (self.ylops_left == 0 || nv as u32 > self.ylops_after(s, k)) {
                    return false;
                }
            }
        } else {
            for &s in pl.parts(pi).0 {
                let nv = self.val[s as usize] - 1;
                if nv < 0 && (self.polys_left == 0 || (-nv) as u32 > self.polys_from(s, k)) {
                    return false;
                }
            }
        }
        true
    }

    /// For the last ylop, placement `pi` of kind `tt` at face `k`: true
    /// unless it leaves face `k` below 0 with no poly able to start there.
    /// Once it is down no ylop can lower anything, so a poly there must
    /// cover slots below 0 only. Decided on the values alone, without the
    /// bookkeeping of [`Search::apply`]; most such placements fail here.
    pub(super) fn last_ylop_leaves_room(&mut self, tt: usize, pi: u32, k: usize) -> bool {
        let f = self.g.faces[k] as usize;
        let slots = self.kinds[tt].placements.slots(pi);
        for &s in slots {
            self.val[s as usize] -= 1;
        }
        let room = self.val[f] >= 0
            || self.kinds[self.n_ylop_kinds..].iter().any(|t| {
                let pl = t.placements;
                t.count > 0 && self.any_below_zero(pl, pl.by_face[k]..pl.by_face[k + 1])
            });
        for &s in slots {
            self.val[s as usize] += 1;
        }
        room
    }

    /// Puts placement `pi` of kind `tt` down (`sign` 1) or takes it back up
    /// (`sign` −1), keeping the counts, sums and hash up to date.
    pub(super) fn apply(&mut self, tt: usize, pi: u32, sign: i16) {
        let pl = self.kinds[tt].placements;
        let sub = tt < self.n_ylop_kinds;
        let delta = if sub { -sign } else { sign };
        let (faces, others) = pl.parts(pi);
        // A step of ±1 changes the positive sum by ±1 exactly where the
        // value is above 0 after a raise or before a lowering.
        let above = if delta > 0 { 0 } else { 1 };
        let mut over = |slots: &[u32]| -> i32 {
            let mut n = 0;
            for &s in slots {
                let v = &mut self.val[s as usize];
                n += (*v >= above) as i32;
                *v += delta;
            }
            n * i32::from(delta)
        };
        let df = over(faces);
        let de = over(others);
        self.over_faces = (self.over_faces as i32 + df) as u32;
        self.over_edges = (self.over_edges as i32 + de) as u32;
        let h = pl.hash[pi as usize];
        let d = delta as i64 as u64;
        let c = sign as i64 as u64;
        let km = kind_mult(tt);
        self.hv[0] = self.hv[0]
            .wrapping_add(h[0].wrapping_mul(d))
            .wrapping_sub(km[0].wrapping_mul(c));
        self.hv[1] = self.hv[1]
            .wrapping_add(h[1].wrapping_mul(d))
            .wrapping_sub(km[1].wrapping_mul(c));
        let n = sign as i32;
        self.kinds[tt].count = (self.kinds[tt].count as i32 - n) as u32;
        let reach = n * pl.max_mult as i32;
        if sub {
            self.ylops_left = (self.ylops_left as i32 - n) as u32;
            self.ylop_reach = (self.ylop_reach as i32 - reach) as u32;
            self.face_cap = (self.face_cap as i32 - n * pl.max_faces as i32) as u32;
            self.edge_cap = (self.edge_cap as i32 - n * pl.max_edges as i32) as u32;
        } else {
            self.polys_left = (self.polys_left as i32 - n) as u32;
            self.poly_reach = (self.poly_reach as i32 - reach) as u32;
        }
    }

    /// Chooses pieces starting at face `k`, in canonical order: kind `t`
    /// onward, and within kind `t` placement `p` onward.
    pub(super) fn at(&mut self, k: usize, t: usize, p: u32) -> bool {
        self.steps += 1;
        if self.steps & 0xFFF == 0
            && self.limits.is_set()
            && (self.limits.expired()
                || self
                    .limits
                    .max_steps
                    .is_some_and(|m| self.steps - 0xFFF > m))
        {
            self.aborted = true;
        }
        if self.aborted {
            return false;
        }
        // Every positive value needs remaining ylops to lower it.
        if self.over_faces > self.face_cap || self.over_edges > self.edge_cap {
            return false;
        }
        let f = self.g.faces[k] as usize;
        let v = self.val[f];
        // Close this face.
        if v == 0 && self.close(k) {
            return true;
        }
        // Ylops must bring a raised face back down, polys a lowered one up.
        if v > 0 && (t >= self.n_ylop_kinds || v as u32 > self.ylop_reach) {
            return false;
        }
        if v < 0 && (-v) as u32 > self.poly_reach {
            return false;
        }
        for tt in t..self.kinds.len() {
            if self.kinds[tt].count == 0 {
                continue;
            }
            if tt >= self.n_ylop_kinds && self.val[f] >= 0 {
                break; // polys only raise the face further
            }
            let pl = self.kinds[tt].placements;
            let lo = pl.by_face[k];
            let hi = pl.by_face[k + 1];
            let from = if tt == t { lo.max(p) } else { lo };
            for pi in from..hi {
                if !self.placeable(tt, pi, k) {
                    continue;
                }
                if tt < self.n_ylop_kinds
                    && self.ylops_left == 1
                    && !self.last_ylop_leaves_room(tt, pi, k)
                {
                    continue;
                }
                self.apply(tt, pi, 1);
                let found = self.at(k, tt, pi);
                self.apply(tt, pi, -1);
                if found {
                    return true;
                }
                if self.aborted {
                    return false;
                }
            }
        }
        false
    }
}
