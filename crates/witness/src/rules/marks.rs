//! Elimination marks (`docs/rules.md#elimination-marks`): the engine's search,
//! decided exactly without enumerating its combinations.
//!
//! The engine pairs marks with very-invalid elements first (last with
//! last), then matches the remaining `n` marks to candidates of the initial
//! soft-invalid list with increasing indices. The configurations it explores
//! are the candidate sets `E` with `|E| = n`, and, when leftover marks may
//! cancel in pairs, the sets with `|E| < n`, `n − |E|` even, that contain the
//! **last** candidate. A configuration is good when `regionCheck` is clean
//! with `E`, every mark and the forced pairs removed.
//!
//! Whether a good `E` exists depends only on how many squares and stars of
//! each colour it erases and on which polyominoes it erases. So we try each
//! subset of the erasable polyominoes (usually there are none or few), run a
//! small dynamic programme over colours for the counts, and only then ask
//! the (costly) polyomino fit. The report for an invalid region is the
//! engine's: the result of its first configuration.

use super::board::{Board, Sym};
use super::scratch::{CheckResult, DpScratch, Scratch};
use super::symbols::{poly_fit, region_check, PolyTables};

/// The outcome for one region that holds elimination marks.
#[derive(Clone, Debug, Default)]
pub struct NegationOutcome {
    /// Whether some explored configuration is clean.
    pub valid: bool,
    /// The failing elements reported (empty when valid).
    pub invalid: Vec<u32>,
    /// (mark, erased element) pairs: the configuration used when valid, the
    /// engine's first configuration otherwise.
    pub pairs: Vec<(u32, u32)>,
}

/// Runs the elimination procedure for a region with marks `negs` (in
/// region order). `removed` must be all false on entry and is restored.
/// With `decide_only` the failures and pairs are left empty.
#[allow(clippy::too_many_arguments)]
pub fn resolve(
    b: &Board,
    t: &PolyTables,
    region: &[u32],
    negs: &[u32],
    covered: &[bool],
    removed: &mut [bool],
    scratch: &mut Scratch,
    decide_only: bool,
) -> NegationOutcome {
    let mut ns = std::mem::take(&mut scratch.neg);
    region_check(b, t, region, covered, removed, scratch, &mut ns.init);
    // Forced pairs: last mark with last very-invalid element.
    ns.negs_left.clear();
    ns.negs_left.extend_from_slice(negs);
    ns.very.clear();
    ns.very.extend_from_slice(&ns.init.very);
    ns.forced.clear();
    while !ns.negs_left.is_empty() && !ns.very.is_empty() {
        let n = ns.negs_left.pop().unwrap();
        let v = ns.very.pop().unwrap();
        removed[n as usize] = true;
        removed[v as usize] = true;
        ns.forced.push((n, v));
    }
    ns.soft.clear();
    ns.soft.extend_from_slice(&ns.init.soft);
    let valid = ns.very.is_empty()
        && find_good_set(
            b,
            t,
            region,
            &ns.negs_left,
            &ns.soft,
            removed,
            scratch,
            &mut ns.dp,
            (!decide_only).then_some(&mut ns.good),
        );
    let mut out = NegationOutcome {
        valid,
        ..Default::default()
    };
    if !decide_only {
        out.pairs = ns.forced.clone();
        if valid {
            out.pairs.extend(
                ns.negs_left
                    .iter()
                    .copied()
                    .zip(ns.good.iter().map(|&k| ns.soft[k])),
            );
        } else {
            let (inv, pairs) = first_configuration(
                b,
                t,
                region,
                &ns.negs_left,
                &ns.soft,
                covered,
                removed,
                scratch,
            );
            out.invalid = inv;
            out.pairs.extend(pairs);
        }
    }
    for &(n, v) in &ns.forced {
        removed[n as usize] = false;
        removed[v as usize] = false;
    }
    scratch.neg = ns;
    out
}

/// The engine's first configuration: marks erase candidates 0, 1, 2, ...;
/// leftovers cancel in pairs, an odd one out is reported.
#[allow(clippy::too_many_arguments)]
fn first_configuration(
    b: &Board,
    t: &PolyTables,
    region: &[u32],
    negs: &[u32],
    soft: &[u32],
    covered: &[bool],
    removed: &mut [bool],
    scratch: &mut Scratch,
) -> (Vec<u32>, Vec<(u32, u32)>) {
    let used = negs.len().min(soft.len());
    let mut touched = Vec::new();
    let mut pairs = Vec::new();
    for k in 0..used {
        removed[negs[k] as usize] = true;
        removed[soft[k] as usize] = true;
        touched.push(negs[k]);
        touched.push(soft[k]);
        pairs.push((negs[k], soft[k]));
    }
    let mut leftovers = Vec::new();
    let rest = &negs[used..];
    if b.ncn {
        for pair in rest.chunks(2) {
            if pair.len() == 2 {
                removed[pair[0] as usize] = true;
                removed[pair[1] as usize] = true;
                touched.extend_from_slice(pair);
            } else {
                leftovers.push(pair[0]);
            }
        }
    } else {
        leftovers.extend_from_slice(rest);
    }
    let mut r = CheckResult::default();
    region_check(b, t, region, covered, removed, scratch, &mut r);
    for s in touched {
        removed[s as usize] = false;
    }
    let mut inv = r.very;
    inv.extend(r.soft);
    inv.extend(leftovers);
    (inv, pairs)
}

/// True when the engine's search would find a good candidate set; with
/// `set` given, also the set (indices into `soft`, ascending). `removed`
/// holds the forced pairs; marks count as removed in every good
/// configuration.
#[allow(clippy::too_many_arguments)]
fn find_good_set(
    b: &Board,
    t: &PolyTables,
    region: &[u32],
    negs: &[u32],
    soft: &[u32],
    removed: &mut [bool],
    scratch: &mut Scratch,
    dp: &mut DpScratch,
    mut set: Option<&mut Vec<usize>>,
) -> bool {
    let n = negs.len();
    let s = soft.len();
    for &m in negs {
        removed[m as usize] = true;
    }
    let result = (|| {
        // Split the candidates.
        let polys = &mut dp.polys;
        polys.clear();
        polys.extend((0..s).filter(|&k| b.sym[soft[k] as usize].is_poly()));
        let polys = &*polys;
        let has_soft_squares = soft.iter().any(|&x| b.sym[x as usize] == Sym::Square);
        let last = s.checked_sub(1);
        let nc = b.n_colors;
        if polys.len() > 20 {
            return false; // beyond any real puzzle; treated as no good set
        }
        // The fit's own early answers by area, per erasable piece: a subset
        // whose remaining pieces have a negative net area, or a positive
        // one other than the region's face count, can never fit.
        let region_faces = region
            .iter()
            .filter(|&&x| b.kind[x as usize] == crate::model::SlotKind::Face)
            .count() as i64;
        let signed_area = |x: u32| -> i64 {
            match b.sym[x as usize] {
                Sym::Poly(k) => b.shapes[k as usize].size() as i64,
                Sym::Ylop(k) => -(b.shapes[k as usize].size() as i64),
                _ => 0,
            }
        };
        let mut base_net = 0i64;
        for &x in region {
            if !removed[x as usize] && b.sym[x as usize].is_poly() {
                base_net += signed_area(x);
            }
        }
        dp.poly_area.clear();
        dp.poly_area
            .extend(polys.iter().map(|&k| signed_area(soft[k])));
        let poly_area = &dp.poly_area;
        // Per colour, with every piece kept: the symbols counted, the
        // stars, and the erasable squares and stars. A subset of erased
        // pieces only takes each piece's own colour off the first count.
        let counted = |i: usize| {
            !removed[i] && b.sym[i] != Sym::Empty && b.kind[i] == crate::model::SlotKind::Face
        };
        for v in [&mut dp.base0, &mut dp.stars, &mut dp.sq, &mut dp.st] {
            v.clear();
            v.resize(nc, 0);
        }
        for &x in region {
            let i = x as usize;
            if !counted(i) {
                continue;
            }
            if soft.contains(&x) {
                match b.sym[i] {
                    Sym::Square => dp.sq[b.color[i] as usize] += 1,
                    Sym::Star => dp.st[b.color[i] as usize] += 1,
                    _ => {}
                }
            }
            dp.base0[b.color[i] as usize] += 1;
            if b.sym[i] == Sym::Star {
                dp.stars[b.color[i] as usize] += 1;
            }
        }
        // Each erasable piece's colour where it counts.
        dp.poly_color.clear();
        dp.poly_color.extend(polys.iter().map(|&k| {
            let i = soft[k] as usize;
            counted(i).then_some(b.color[i] as usize)
        }));
        let (stars, sq, st) = (&dp.stars, &dp.sq, &dp.st);
        for q in 0u32..(1u32 << polys.len()) {
            let q_size = q.count_ones() as usize;
            if q_size > n {
                continue;
            }
            if !polys.is_empty() {
                let mut net = base_net;
                for (j, a) in poly_area.iter().enumerate() {
                    if q & (1 << j) != 0 {
                        net -= a;
                    }
                }
                if net < 0 || (net > 0 && net != region_faces) {
                    continue;
                }
            }
            let in_q = |k: usize| {
                polys
                    .iter()
                    .position(|&p| p == k)
                    .is_some_and(|j| q & (1 << j) != 0)
            };
            let last_in_q = last.is_some_and(|l| b.sym[soft[l] as usize].is_poly() && in_q(l));
            // The symbols counted per colour, without the erased pieces.
            let base = &mut dp.base;
            base.clone_from(&dp.base0);
            for (j, c) in dp.poly_color.iter().enumerate() {
                if let (true, &Some(c)) = (q & (1 << j) != 0, c) {
                    base[c] -= 1;
                }
            }
            // Which colour group must give up the last candidate.
            let last_group: Option<(usize, bool)> = match last {
                Some(l) if !b.sym[soft[l] as usize].is_poly() => {
                    let i = soft[l] as usize;
                    Some((b.color[i] as usize, b.sym[i] == Sym::Square))
                }
                _ => None,
            };
            // DP over colours: state (erased count, square colour kept, last
            // taken). Layer `c` holds the states after `c` colours, each
            // with the state and the counts it came from.
            let max_m = n;
            let idx = |m: usize, sqk: bool, lt: bool| (m * 2 + sqk as usize) * 2 + lt as usize;
            let size = (max_m + 1) * 4;
            let layers = &mut dp.layers;
            layers.clear();
            layers.resize((nc + 1) * size, None);
            let lt0 = s == 0 || last_in_q;
            layers[idx(q_size, false, lt0)] = Some((usize::MAX, 0, 0));
            for c in 0..nc {
                let (done, rest) = layers.split_at_mut((c + 1) * size);
                let cur = &done[c * size..];
                let next = &mut rest[..size];
                for (state, v) in cur.iter().enumerate() {
                    if v.is_none() {
                        continue;
                    }
                    let lt = state % 2 == 1;
                    let sqk = (state / 2) % 2 == 1;
                    let m = state / 4;
                    for a in 0..=sq[c] {
                        for bb in 0..=st[c] {
                            let m2 = m + (a + bb) as usize;
                            if m2 > max_m {
                                break;
                            }
                            let remaining = base[c] - a - bb;
                            if stars[c] - bb > 0 && remaining != 2 {
                                continue;
                            }
                            let keeps_squares = has_soft_squares && sq[c] - a > 0;
                            if keeps_squares && sqk {
                                continue;
                            }
                            let lt2 = lt
                                || match last_group {
                                    Some((lc, true)) => lc == c && a > 0,
                                    Some((lc, false)) => lc == c && bb > 0,
                                    None => false,
                                };
                            let ns = idx(m2, sqk || keeps_squares, lt2);
                            if next[ns].is_none() {
                                next[ns] = Some((state, a, bb));
                            }
                        }
                    }
                }
            }
            // Accepting end states.
            let cur = &layers[nc * size..];
            let mut accept = None;
            for (state, v) in cur.iter().enumerate() {
                if v.is_none() {
                    continue;
                }
                let lt = state % 2 == 1;
                let m = state / 4;
                let ok = m == n || (b.ncn && m < n && (n - m).is_multiple_of(2) && lt);
                if ok {
                    accept = Some(state);
                    break;
                }
            }
            let Some(mut state) = accept else { continue };
            // Polyomino fit of what remains.
            if !polys.is_empty() {
                for (j, &k) in polys.iter().enumerate() {
                    if q & (1 << j) != 0 {
                        removed[soft[k] as usize] = true;
                    }
                }
                let ok = poly_fit(b, t, region, removed, scratch);
                for (j, &k) in polys.iter().enumerate() {
                    if q & (1 << j) != 0 {
                        removed[soft[k] as usize] = false;
                    }
                }
                if !ok {
                    continue;
                }
            }
            let Some(e) = set.as_deref_mut() else {
                return true;
            };
            // Reconstruct the erased set.
            let mut take_sq = vec![0i32; nc];
            let mut take_st = vec![0i32; nc];
            for c in (0..nc).rev() {
                let (prev, a, bb) = layers[(c + 1) * size + state].expect("dp path");
                take_sq[c] = a;
                take_st[c] = bb;
                state = prev;
            }
            e.clear();
            for (j, &k) in polys.iter().enumerate() {
                if q & (1 << j) != 0 {
                    e.push(k);
                }
            }
            // Take from the back so the last candidate is included when needed.
            for k in (0..s).rev() {
                let i = soft[k] as usize;
                let c = b.color[i] as usize;
                let slot = match b.sym[i] {
                    Sym::Square => &mut take_sq[c],
                    Sym::Star => &mut take_st[c],
                    _ => continue,
                };
                if *slot > 0 {
                    *slot -= 1;
                    e.push(k);
                }
            }
            e.sort_unstable();
            return true;
        }
        false
    })();
    for &m in negs {
        removed[m as usize] = false;
    }
    result
}
