//! Regions as bitsets of faces: the search's fast region floods.
//!
//! Two inside faces side by side are in the same region exactly when the
//! edge between them is not a wall (spec §5.2: a node the line has not
//! covered has no covered edges, so it never joins faces that their shared
//! edges do not already join). The search keeps one bit per such link and
//! clears it while the line covers the edge; a region is then a flood fill
//! over face bitsets, a few word operations per step instead of a walk over
//! every slot.
//!
//! Faces use the node grid's stride: face (c, r), the one between node
//! columns c, c + 1 and node rows r, r + 1, has index `r * ncols + c`. So a
//! node set shifted by a row or a column lines up with the faces beside it.
//!
//! Around removed faces (and along the border) faces can also join through
//! nodes and edges without crossing an edge between them: such boards add
//! a rim layer of node bits and face-to-corner links ([`Rim`]). Regions
//! without faces (a dotted strip along removed faces) are not seen here;
//! the search leaves them to the final validation.

use super::bits::Bits;
use super::hash::Kept;
use super::plan::Plan;
use crate::model::SlotKind;
use crate::rules::board::{Sym, NONE};

/// Which link an edge slot carries: to the face on the right, the face
/// below, or across a pillar's seam.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Face `f` to face `f + 1`.
    Right(u32),
    /// Face `f` to face `f + ncols`.
    Down(u32),
    /// Last-column face `f` to first-column face `f + 1 - ncols` (pillars).
    Wrap(u32),
}

/// The three link sets: bit `f` set when face `f` joins its neighbour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Links<const N: usize> {
    /// Face `f` joins face `f + 1`.
    pub right: Bits<N>,
    /// Face `f` joins face `f + ncols`.
    pub down: Bits<N>,
    /// Last-column face `f` joins the first-column face of its row.
    pub wrap: Bits<N>,
}

impl<const N: usize> Links<N> {
    /// Whether a link joins its faces.
    #[inline]
    pub fn get(&self, link: Link) -> bool {
        match link {
            Link::Right(f) => self.right.get(f as usize),
            Link::Down(f) => self.down.get(f as usize),
            Link::Wrap(f) => self.wrap.get(f as usize),
        }
    }

    /// Clears (the line covers the edge) or sets (uncovers it) a link.
    #[inline]
    pub fn put(&mut self, link: Link, on: bool) {
        let (set, f) = match link {
            Link::Right(f) => (&mut self.right, f),
            Link::Down(f) => (&mut self.down, f),
            Link::Wrap(f) => (&mut self.wrap, f),
        };
        if on {
            set.set(f as usize);
        } else {
            set.clear(f as usize);
        }
    }
}

/// The rim: nodes beside removed faces or the border (with an edge that
/// does not part two inside faces) and the links through them. Regions
/// join through the rim where they share no edge (around removed faces).
#[derive(Clone, Debug)]
pub struct Rim {
    /// The rim bits each slot's cover changes: `at[s]..at[s + 1]` in `ids`.
    pub at: Vec<u32>,
    /// Rim bit indices into `bits`.
    pub ids: Vec<u32>,
    /// Every rim bit.
    pub bits: Vec<RimBit>,
}

/// One rim link and what it depends on.
#[derive(Copy, Clone, Debug)]
pub struct RimBit {
    /// 0-3: face to its corner node (NW, NE, SW, SE); 4-6: node to node
    /// (right, down, across the seam).
    pub set: u8,
    /// Face or node index of the bit.
    pub index: u32,
    /// Face to corner: the node and the face's two edges at it (joined when
    /// the node is free and either edge open). Node to node: both nodes and
    /// the edge (joined when all three are open).
    pub slots: [u32; 3],
}

/// The rim links in force.
#[derive(Copy, Clone, Debug)]
pub struct RimLinks<const N: usize> {
    /// Face `f` joins its corner node (NW: node `f`; NE: the node east of
    /// it; SW: node `f + ncols`; SE: the node east of that).
    pub corner: [Bits<N>; 4],
    /// Rim node links.
    pub nodes: Links<N>,
}

impl<const N: usize> RimLinks<N> {
    /// Sets one bit.
    #[inline]
    pub fn put(&mut self, set: u8, index: u32, on: bool) {
        let bits = match set {
            0..=3 => &mut self.corner[set as usize],
            4 => &mut self.nodes.right,
            5 => &mut self.nodes.down,
            _ => &mut self.nodes.wrap,
        };
        if on {
            bits.set(index as usize);
        } else {
            bits.clear(index as usize);
        }
    }
}

/// A colour's stars and everything of that colour.
#[derive(Clone, Debug)]
pub struct StarColor<const N: usize> {
    /// Faces with stars of the colour.
    pub stars: Bits<N>,
    /// Faces with any symbol of the colour.
    pub all: Bits<N>,
}

/// The per-puzzle face tables.
#[derive(Clone, Debug)]
pub struct FaceMasks<const N: usize> {
    /// No face is removed: the face links alone decide regions. (Around
    /// removed faces, nodes and edges beside them join faces that share no
    /// edge; such boards also flood through the rim.)
    pub exact: bool,
    /// The rim tables, on boards with removed faces.
    pub rim: Option<Rim>,
    /// The rim links with no line on the board.
    pub rim_links: RimLinks<N>,
    /// Node (and face) columns per row.
    pub ncols: usize,
    /// The panel wraps.
    pub pillar: bool,
    /// Inside faces (not removed by the outside fill).
    pub inside: Bits<N>,
    /// Face positions in the last node column (pillars: faces across the
    /// seam from the first column).
    pub last_col: Bits<N>,
    /// The complement of `last_col`.
    pub not_last: Bits<N>,
    /// Links with no line on the board.
    pub links: Links<N>,
    /// Links whose edge a line may enter (the others can never be cut).
    pub enterable: Links<N>,
    /// Links of `enterable` whose edge the line (or with symmetry the
    /// mirror line) may end on.
    pub end_links: Links<N>,
    /// Face index per slot (`NONE` for nodes and edges).
    pub face_of: Vec<u32>,
    /// Slot per face index (`NONE` where no face).
    pub slot_of: Vec<u32>,
    /// The link an edge slot carries, if any.
    pub link_of: Vec<Option<Link>>,
    /// Per node slot: the inside faces diagonal to it.
    pub around: Vec<[u32; 4]>,
    /// One set per colour with squares.
    pub squares: Vec<Bits<N>>,
    /// One entry per colour with stars.
    pub stars: Vec<StarColor<N>>,
    /// Polyominoes (not subtractive) by size: size and faces.
    pub polys: Vec<(u32, Bits<N>)>,
    /// Elimination marks.
    pub negas: Bits<N>,
    /// Squares, stars or pieces on the board: open regions may already be
    /// hopeless.
    pub open_checks: bool,
    /// Squares and stars of any colour.
    pub colored_squares_stars: Bits<N>,
    /// Polyominoes (not subtractive) of positive size.
    pub sized_polys: Bits<N>,
    /// Subtractive polyominoes.
    pub ylops: Bits<N>,
    /// Subtractive polyominoes by size: size and faces.
    pub ylop_sizes: Vec<(u32, Bits<N>)>,
    /// Any polyomino, subtractive or not.
    pub any_poly: Bits<N>,
    /// Per kind of piece (not subtractive, of positive size): where it
    /// stands and every placement of it on inside faces.
    pub placements: Vec<PiecePlaces<N>>,
    /// The distinct placements of each kind as face sets, by first face
    /// (lowest index) and then kind, for the steps of [`FaceMasks::tiles`]: those of
    /// kind `k` anchored at face `f` are
    /// `anchor_places[anchors[f * kinds + k]..anchors[f * kinds + k + 1]]`
    /// (`kinds` the number of kinds), contiguous in memory.
    pub anchor_places: Vec<Bits<N>>,
    /// The start of each face's and kind's run in
    /// [`FaceMasks::anchor_places`], and the end of the last one.
    pub anchors: Vec<u32>,
}

/// A kind of piece and the face sets it can cover.
#[derive(Clone, Debug)]
pub struct PiecePlaces<const N: usize> {
    /// The faces holding a piece of this kind.
    pub at: Bits<N>,
    /// The number of faces a piece of this kind covers.
    pub size: u32,
    /// Every placement (each orientation the rules allow, anywhere on the
    /// inside faces, across a pillar's seam too, but none that wraps round
    /// a narrow pillar onto a face it already covers) as a face set.
    pub places: Vec<Bits<N>>,
    /// Per face index: the placements (indices into `places`) holding it.
    pub holding: Vec<Vec<u32>>,
    /// Off pillars, the placements again by orientation, for whole sets of
    /// them at once ([`FaceMasks::piece_cover_of`]): the face indices of
    /// the corner of the orientation's bounding box where it fits on the
    /// inside faces, and the offsets of its faces from that corner. Empty
    /// on pillars, whose placements may wrap round the seam.
    pub shifts: Vec<(Bits<N>, Vec<usize>)>,
}

/// The low bit of each byte of a `u128` (the pieces left by kind, in
/// [`FaceMasks::tiles`]).
const LOW_BITS: u128 = u128::MAX / 0xFF;

/// The verdicts of [`FaceMasks::tiles`] on the faces left to tile and the
/// pieces left (a count in each byte, by kind): whether those pieces tile
/// exactly those faces depends on nothing else.
pub type TileMemo<const N: usize> = Kept<(Bits<N>, u128), bool>;

/// Sets face `f` in the set of `sets` filed under `key`, adding that set
/// when there is none yet.
fn mark_in<K: PartialEq, const N: usize>(sets: &mut Vec<(K, Bits<N>)>, key: K, f: usize) {
    match sets.iter_mut().find(|(k, _)| *k == key) {
        Some((_, set)) => set.set(f),
        None => {
            let mut set = Bits::empty();
            set.set(f);
            sets.push((key, set));
        }
    }
}

impl<const N: usize> FaceMasks<N> {
    /// Builds the tables for a plan.
    pub fn new(p: &Plan) -> Self {
        let b = &p.rules.board;
        let ncols = p.ncols;
        let n = b.len();
        let mut m = FaceMasks {
            exact: (0..n).all(|i| b.kind[i] != SlotKind::Face || !b.outside[i]),
            rim: None,
            rim_links: RimLinks {
                corner: [Bits::empty(); 4],
                nodes: Links {
                    right: Bits::empty(),
                    down: Bits::empty(),
                    wrap: Bits::empty(),
                },
            },
            ncols,
            pillar: b.pillar,
            inside: Bits::empty(),
            last_col: Bits::empty(),
            not_last: Bits::empty(),
            links: Links {
                right: Bits::empty(),
                down: Bits::empty(),
                wrap: Bits::empty(),
            },
            enterable: Links {
                right: Bits::empty(),
                down: Bits::empty(),
                wrap: Bits::empty(),
            },
            end_links: Links {
                right: Bits::empty(),
                down: Bits::empty(),
                wrap: Bits::empty(),
            },
            face_of: vec![NONE; n],
            slot_of: vec![NONE; p.nodes()],
            link_of: vec![None; n],
            around: vec![[NONE; 4]; n],
            squares: Vec::new(),
            stars: Vec::new(),
            polys: Vec::new(),
            negas: Bits::empty(),
            open_checks: false,
            colored_squares_stars: Bits::empty(),
            sized_polys: Bits::empty(),
            ylops: Bits::empty(),
            ylop_sizes: Vec::new(),
            any_poly: Bits::empty(),
            placements: Vec::new(),
            anchor_places: Vec::new(),
            anchors: Vec::new(),
        };
        for r in 0..p.nrows {
            for c in 0..ncols {
                if c == ncols - 1 {
                    m.last_col.set(r * ncols + c);
                } else {
                    m.not_last.set(r * ncols + c);
                }
            }
        }
        // Faces (odd x, odd y), a column at a time.
        for x in (1..b.w).step_by(2) {
            for y in (1..b.h).step_by(2) {
                let i = x * b.h + y;
                let f = (y / 2) * ncols + x / 2;
                m.face_of[i] = f as u32;
                m.slot_of[f] = i as u32;
                if !b.outside[i] {
                    m.inside.set(f);
                }
            }
        }
        // Edges: horizontal ones (even x, odd y) join the faces left and
        // right, vertical ones (odd x, even y) those above and below.
        for x in 0..b.w {
            for y in (1 - x % 2..b.h).step_by(2) {
                let i = x * b.h + y;
                let (a, c) = if x % 2 == 0 {
                    (b.nbr[i][0], b.nbr[i][1])
                } else {
                    (b.nbr[i][2], b.nbr[i][3])
                };
                let inside_face =
                    |s: u32| s != NONE && m.face_of[s as usize] != NONE && !b.outside[s as usize];
                if !inside_face(a) || !inside_face(c) {
                    continue;
                }
                let fa = m.face_of[a as usize];
                let link = if x % 2 == 1 {
                    Link::Down(fa)
                } else if x == 0 {
                    // A pillar's seam: the left face is in the last column.
                    Link::Wrap(fa)
                } else {
                    Link::Right(fa)
                };
                m.link_of[i] = Some(link);
                m.links.put(link, true);
                if p.enterable[i] {
                    m.enterable.put(link, true);
                    // With symmetry the mirror line may end on the mirror
                    // of an end, which need not be an end itself.
                    if b.end[i] || b.end[b.mirror[i] as usize] {
                        m.end_links.put(link, true);
                    }
                }
            }
        }
        for &s in &p.slot_of_node {
            let i = s as usize;
            let mut k = 0;
            for f in p.faces_around[i] {
                if f != NONE && !b.outside[f as usize] {
                    m.around[i][k] = m.face_of[f as usize];
                    k += 1;
                }
            }
        }
        // Symbols, by face; the colours of squares and of stars.
        let mut symbols: Vec<(usize, usize)> = Vec::new();
        // Kinds of piece (by shape, of positive size) and their faces.
        let mut kinds: Vec<(u16, Bits<N>)> = Vec::new();
        let mut square_colors: Vec<u8> = Vec::new();
        let mut star_colors: Vec<u8> = Vec::new();
        for x in (1..b.w).step_by(2) {
            for y in (1..b.h).step_by(2) {
                let i = x * b.h + y;
                if b.sym[i] == Sym::Empty || b.outside[i] {
                    continue;
                }
                let f = m.face_of[i] as usize;
                symbols.push((i, f));
                match b.sym[i] {
                    Sym::Square if !square_colors.contains(&b.color[i]) => {
                        square_colors.push(b.color[i])
                    }
                    Sym::Star if !star_colors.contains(&b.color[i]) => star_colors.push(b.color[i]),
                    Sym::Poly(k) => {
                        let size = b.shapes[k as usize].size() as u32;
                        mark_in(&mut m.polys, size, f);
                        if size > 0 {
                            mark_in(&mut kinds, k, f);
                        }
                        m.any_poly.set(f);
                    }
                    Sym::Ylop(k) => {
                        let size = b.shapes[k as usize].size() as u32;
                        mark_in(&mut m.ylop_sizes, size, f);
                        m.ylops.set(f);
                        m.any_poly.set(f);
                    }
                    Sym::Nega => m.negas.set(f),
                    _ => {}
                }
            }
        }
        m.squares = vec![Bits::empty(); square_colors.len()];
        m.stars = vec![
            StarColor {
                stars: Bits::empty(),
                all: Bits::empty(),
            };
            star_colors.len()
        ];
        for &(i, f) in &symbols {
            let c = b.color[i];
            if b.sym[i] == Sym::Square {
                if let Some(k) = square_colors.iter().position(|&q| q == c) {
                    m.squares[k].set(f);
                }
            }
            if let Some(k) = star_colors.iter().position(|&q| q == c) {
                m.stars[k].all.set(f);
                if b.sym[i] == Sym::Star {
                    m.stars[k].stars.set(f);
                }
            }
        }
        for (size, set) in &m.polys {
            if *size > 0 {
                m.sized_polys = m.sized_polys.or(set);
            }
        }
        m.build_placements(p, kinds);
        if !m.exact {
            m.build_rim(p);
        }
        m.open_checks = !m.squares.is_empty() || !m.stars.is_empty() || !m.polys.is_empty();
        for set in m.squares.iter().chain(m.stars.iter().map(|s| &s.stars)) {
            m.colored_squares_stars = m.colored_squares_stars.or(set);
        }
        m
    }

    /// Lists every placement on the inside faces of each kind of piece
    /// (by shape, with the faces holding it).
    fn build_placements(&mut self, p: &Plan, kinds: Vec<(u16, Bits<N>)>) {
        let b = &p.rules.board;
        let (fw, fh) = (b.w / 2, b.h / 2);
        let mut by_kind = Vec::with_capacity(kinds.len());
        for (k, at) in kinds {
            let mut places = Vec::new();
            let mut shifts = Vec::new();
            for shape in b.shapes[k as usize].orientations() {
                let (sw, sh) = shape.bounds();
                let (sw, sh) = (sw as usize, sh as usize);
                // On a pillar a piece may be wider than the panel: it wraps
                // round, unless it then covers a face twice (which only a
                // subtractive piece could make good, and placements here
                // are for tilings without those).
                if sh > fh || (sw > fw && !b.pillar) {
                    continue;
                }
                let xs = if b.pillar { fw } else { fw + 1 - sw };
                let mut corners = Bits::<N>::empty();
                for ay in 0..=fh - sh {
                    'place: for ax in 0..xs {
                        let mut set = Bits::<N>::empty();
                        for &(cx, cy) in shape.cells() {
                            let fx = (ax + cx as usize) % fw;
                            let f = (ay + cy as usize) * self.ncols + fx;
                            if !self.inside.get(f) || set.get(f) {
                                continue 'place;
                            }
                            set.set(f);
                        }
                        places.push(set);
                        corners.set(ay * self.ncols + ax);
                    }
                }
                if !b.pillar {
                    let offsets = shape.cells().iter();
                    let offsets = offsets.map(|&(cx, cy)| cy as usize * self.ncols + cx as usize);
                    shifts.push((corners, offsets.collect()));
                }
            }
            let size = b.shapes[k as usize].size() as u32;
            let mut holding = vec![Vec::new(); p.nodes()];
            // The distinct placements by first face.
            let mut anchored: Vec<Vec<u32>> = vec![Vec::new(); p.nodes()];
            for (i, pl) in places.iter().enumerate() {
                let mut faces = *pl;
                let first = faces.first().expect("a piece of positive size");
                if !anchored[first].iter().any(|&j| places[j as usize] == *pl) {
                    anchored[first].push(i as u32);
                }
                while let Some(f) = faces.first() {
                    faces.clear(f);
                    holding[f].push(i as u32);
                }
            }
            self.placements.push(PiecePlaces {
                at,
                size,
                places,
                holding,
                shifts,
            });
            by_kind.push(anchored);
        }
        self.anchor_places.clear();
        self.anchors.clear();
        for f in 0..p.nodes() {
            for (kind, anchored) in self.placements.iter().zip(&by_kind) {
                self.anchors.push(self.anchor_places.len() as u32);
                let places = anchored[f].iter().map(|&i| kind.places[i as usize]);
                self.anchor_places.extend(places);
            }
        }
        self.anchors.push(self.anchor_places.len() as u32);
    }

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
    /// AND or OR a face of the piece, where a placement at a time took an
    /// AND a placement: 14% of 96FE4285's time).
    pub fn piece_cover_of(&self, region: &Bits<N>, need: &Bits<N>) -> Option<Bits<N>> {
        let mut cover = Bits::empty();
        let mut done = false;
        for k in &self.placements {
            if !k.at.intersects(region) {
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
    /// covered when it holds a piece or any covered face. Gives up (true)
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
    fn tile(
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

    /// Whether `packing` (placements by kind and index, of the pieces
    /// standing in `region`, not overlapping) is still a packing
    /// [`FaceMasks::packs`] looks for, with `need` closed under `stuck`
    /// (the links inside the region): inside the region, covering `need`,
    /// and no link of `stuck` between a face it covers and one it does not.
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
    }

    /// One step of [`FaceMasks::packs`]: `used` holds the faces placed so
    /// far, `left` the pieces still to place by kind (and the lowest
    /// placement index the next one of the kind may take where no face
    /// needs it: pieces of a kind are alike, so they go in index order
    /// there), `rest` their area.
    #[allow(clippy::too_many_arguments)]
    fn pack(
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
            return need.and_not(used).is_empty();
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
    /// pieces, subtractive or not, that elimination marks must take away
    /// before the fit's area rule can hold for the rest (spec §5.6): none
    /// left, or a net area of 0 (the rest may cancel out), or a net area
    /// equal to the region's. Pieces of size 0 are left out (keeping or
    /// taking one costs nothing here), so this is a lower bound. Only a
    /// bound of 0 when the sizes are too many or too large to tally.
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

    /// Builds the rim tables (see [`Rim`]) and sets every rim link.
    fn build_rim(&mut self, p: &Plan) {
        let b = &p.rules.board;
        let n = b.len();
        let edge = |s: u32| s != NONE && b.kind[s as usize] == SlotKind::Edge;
        let mut rim_node = vec![false; n];
        for i in 0..n {
            if b.kind[i] != SlotKind::Node || b.outside[i] {
                continue;
            }
            rim_node[i] = b.nbr[i]
                .iter()
                .any(|&e| edge(e) && !b.outside[e as usize] && self.link_of[e as usize].is_none());
        }
        let mut bits = Vec::new();
        for i in 0..n {
            let f = self.face_of[i];
            if f == NONE || b.outside[i] {
                continue;
            }
            // Edges of the face: left, right, up, down; corners NW, NE, SW, SE.
            let [l, r, u, d] = b.nbr[i];
            let corners = [
                (b.nbr[u as usize][0], u, l),
                (b.nbr[u as usize][1], u, r),
                (b.nbr[d as usize][0], d, l),
                (b.nbr[d as usize][1], d, r),
            ];
            for (k, (v, e1, e2)) in corners.into_iter().enumerate() {
                if v != NONE && rim_node[v as usize] {
                    bits.push(RimBit {
                        set: k as u8,
                        index: f,
                        slots: [v, e1, e2],
                    });
                }
            }
        }
        for e in 0..n {
            if b.kind[e] != SlotKind::Edge || b.outside[e] {
                continue;
            }
            let x = e / b.h;
            let (v1, v2, set) = if x.is_multiple_of(2) {
                (b.nbr[e][2], b.nbr[e][3], 5) // vertical edge: up and down nodes
            } else if b.pillar && x == b.w - 1 {
                (b.nbr[e][0], b.nbr[e][1], 6) // across the seam
            } else {
                (b.nbr[e][0], b.nbr[e][1], 4)
            };
            if v1 == NONE || v2 == NONE || !rim_node[v1 as usize] || !rim_node[v2 as usize] {
                continue;
            }
            bits.push(RimBit {
                set,
                index: p.node_of[v1 as usize],
                slots: [v1, v2, e as u32],
            });
        }
        let mut per_slot: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, bit) in bits.iter().enumerate() {
            for s in bit.slots {
                per_slot[s as usize].push(k as u32);
            }
            self.rim_links.put(bit.set, bit.index, true);
        }
        let mut at = Vec::with_capacity(n + 1);
        let mut ids = Vec::new();
        at.push(0);
        for list in per_slot {
            ids.extend(list);
            at.push(ids.len() as u32);
        }
        self.rim = Some(Rim { at, ids, bits });
    }

    /// For an edge slot: per end node, the node and the edges beside it of
    /// the two faces the edge parts (`NONE` where missing). A covered edge
    /// whose end node the line has not covered (a start on an edge) does
    /// not part its faces: they stay joined around that node.
    pub fn corners(p: &Plan, e: usize) -> [[u32; 3]; 2] {
        let b = &p.rules.board;
        let nb = &b.nbr[e];
        // Vertical edge: nodes up and down, side edges left and right of
        // them; horizontal edge: nodes left and right, side edges up and down.
        let (ends, sides) = if (e / b.h).is_multiple_of(2) {
            ([nb[2], nb[3]], [0, 1])
        } else {
            ([nb[0], nb[1]], [2, 3])
        };
        ends.map(|v| {
            if v == NONE {
                [NONE; 3]
            } else {
                let vn = &b.nbr[v as usize];
                [v, vn[sides[0]], vn[sides[1]]]
            }
        })
    }

    /// True when `set` holds squares of two or more colours.
    #[inline]
    pub fn mixed_squares(&self, set: &Bits<N>) -> bool {
        self.squares
            .iter()
            .filter(|sq| set.intersects(sq))
            .nth(1)
            .is_some()
    }

    /// True when one of the parts that `links` join holds squares of two
    /// colours, among the parts with a square of `set`: the squares of each
    /// colour are flooded together, and meet another colour's.
    pub fn parts_mix_squares(&self, set: &Bits<N>, links: &Links<N>) -> bool {
        let Some((_, rest)) = self.squares.split_last() else {
            return false;
        };
        let all = self
            .squares
            .iter()
            .fold(Bits::empty(), |a, sq| a.or(sq))
            .and(set);
        rest.iter().any(|sq| {
            let seeds = set.and(sq);
            let others = all.and_not(sq);
            !seeds.is_empty() && !others.is_empty() && self.flood(seeds, links).intersects(&others)
        })
    }

    /// The total size of the subtractive polyominoes in `region`.
    #[inline]
    pub fn ylop_area(&self, region: &Bits<N>) -> u32 {
        self.ylop_sizes
            .iter()
            .map(|(size, set)| size * region.and(set).count())
            .sum()
    }

    /// The total size of the (not subtractive) polyominoes in `region`.
    #[inline]
    pub fn area(&self, region: &Bits<N>) -> u32 {
        self.polys
            .iter()
            .map(|(size, set)| size * region.and(set).count())
            .sum()
    }

    /// One step of a flood over `links` (faces and nodes share the stride,
    /// so node links flood nodes the same way): `cur` and the faces one
    /// link from it.
    #[inline]
    pub fn step(&self, cur: &Bits<N>, links: &Links<N>) -> Bits<N> {
        let nc = self.ncols;
        let mut nx = cur
            .or(&cur.and(&links.right).shl(1))
            .or(&cur.shr(1).and(&links.right))
            .or(&cur.and(&links.down).shl(nc))
            .or(&cur.shr(nc).and(&links.down));
        if self.pillar {
            nx = nx
                .or(&cur.and(&links.wrap).shr(nc - 1))
                .or(&cur.shl(nc - 1).and(&links.wrap));
        }
        nx
    }

    /// The faces joined to `seed` under `links`.
    #[inline]
    pub fn flood(&self, seed: Bits<N>, links: &Links<N>) -> Bits<N> {
        let mut cur = seed;
        loop {
            let nx = self.step(&cur, links);
            if nx == cur {
                return cur;
            }
            cur = nx;
        }
    }

    /// The faces with at least one of `links` (the others are parts of
    /// one face each).
    #[inline]
    pub fn linked(&self, links: &Links<N>) -> Bits<N> {
        let nc = self.ncols;
        let mut out = links
            .right
            .or(&links.right.shl(1))
            .or(&links.down)
            .or(&links.down.shl(nc));
        if self.pillar {
            out = out.or(&links.wrap).or(&links.wrap.shr(nc - 1));
        }
        out
    }

    /// The faces and rim nodes joined to `seed` under `links` and the rim
    /// links: on boards with removed faces. The faces are flooded over
    /// their own links first and the rim only between those floods (the
    /// same closure, in fewer of the costlier rim steps).
    pub fn flood_rim(
        &self,
        seed: Bits<N>,
        links: &Links<N>,
        rim: &RimLinks<N>,
    ) -> (Bits<N>, Bits<N>) {
        let nc = self.ncols;
        let (mut f, mut v) = (seed, Bits::<N>::empty());
        loop {
            f = self.flood(f, links);
            // The rim nodes at corners of those faces, flooded along the
            // rim's own links.
            let mut nv = v
                .or(&f.and(&rim.corner[0]))
                .or(&self.push_east(&f.and(&rim.corner[1])))
                .or(&f.and(&rim.corner[2]).shl(nc))
                .or(&self.push_east(&f.and(&rim.corner[3])).shl(nc));
            loop {
                let next = self.step(&nv, &rim.nodes);
                if next == nv {
                    break;
                }
                nv = next;
            }
            // The faces at those nodes.
            let below = nv.shr(nc);
            let nf = f
                .or(&nv.and(&rim.corner[0]))
                .or(&self.east(&nv).and(&rim.corner[1]))
                .or(&below.and(&rim.corner[2]))
                .or(&self.east(&below).and(&rim.corner[3]));
            // No new faces: `f` is closed under its links, and `nv` under
            // the rim's, holding every rim corner of `f`.
            if nf == f {
                return (f, nv);
            }
            f = nf;
            v = nv;
        }
    }

    /// Face bits moved onto the node at each face's north-east corner (a
    /// face shares its index with its north-west node), across a pillar's
    /// seam too.
    #[inline]
    pub fn push_east(&self, y: &Bits<N>) -> Bits<N> {
        let mut e = y.and(&self.not_last).shl(1);
        if self.pillar {
            e = e.or(&y.and(&self.last_col).shr(self.ncols - 1));
        }
        e
    }

    /// Node set `x` moved onto the faces to the west of its nodes: bit `f`
    /// set when the node at face `f`'s east side (same row) is in `x`.
    #[inline]
    fn east(&self, x: &Bits<N>) -> Bits<N> {
        let mut e = x.shr(1).and(&self.not_last);
        if self.pillar {
            e = e.or(&x.shl(self.ncols - 1).and(&self.last_col));
        }
        e
    }

    /// The inside faces with a corner at a node of `reach`: the faces a line
    /// that can reach those nodes may still cut off or join a wall to.
    #[inline]
    pub fn touched(&self, reach: &Bits<N>) -> Bits<N> {
        let rows = reach.or(&reach.shr(self.ncols));
        rows.or(&self.east(&rows)).and(&self.inside)
    }

    /// The links the line can never cut any more: not walls, and their edge
    /// not enterable, or with an end node not in `reach` (the nodes the line
    /// can still visit, the head included): the line covers an edge by
    /// passing from one of its nodes to the other, or by ending on it from
    /// one of them. Links that covered start edges may still turn into
    /// walls are not in `links` here (the caller leaves them out).
    #[inline]
    pub fn stuck(&self, links: &Links<N>, reach: &Bits<N>) -> Links<N> {
        let below = reach.shr(self.ncols);
        // A vertical edge east of face f: the east nodes of both rows.
        let (top_r, bottom_r) = (self.east(reach), self.east(&below));
        // A horizontal edge below face f: both nodes of the row below.
        let e = &self.end_links;
        let cut_r = coverable(&top_r, &bottom_r, &e.right);
        let cut_w = coverable(&top_r, &bottom_r, &e.wrap);
        let cut_d = coverable(&below, &bottom_r, &e.down);
        Links {
            right: links.right.and_not(&self.enterable.right.and(&cut_r)),
            down: links.down.and_not(&self.enterable.down.and(&cut_d)),
            wrap: links.wrap.and_not(&self.enterable.wrap.and(&cut_w)),
        }
    }
}

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

/// The edges the line may still cover, per edge bit: those with both nodes
/// in reach (`a`: one node's bit, `b`: the other's), and those it may end on
/// (`ends`) with either. The line covers an edge only by passing from one of
/// its nodes to the other, or by ending on it.
#[inline]
pub fn coverable<const N: usize>(a: &Bits<N>, b: &Bits<N>, ends: &Bits<N>) -> Bits<N> {
    a.and(b).or(&ends.and(&a.or(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Color, Polyomino, Pos, Puzzle, Symbol, SymbolKind};

    /// A 3x3 panel with one fixed L piece (three squares: `#.` over `##`)
    /// on the centre face.
    fn l_panel(pillar: bool) -> (FaceMasks<1>, usize) {
        let mut p = Puzzle::new(3, 3, pillar).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        let shape = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
        p.cell_mut(Pos::new(3, 3)).symbol = Some(Symbol::new(
            SymbolKind::Poly(shape),
            Color::from_name("black"),
        ));
        let plan = Plan::new(&p).unwrap();
        (FaceMasks::new(&plan), plan.ncols)
    }

    fn faces(ncols: usize, at: &[(usize, usize)]) -> Bits<1> {
        let mut b = Bits::empty();
        for &(x, y) in at {
            b.set(y * ncols + x);
        }
        b
    }

    #[test]
    fn pieces_cover_only_what_fits_inside_the_region() {
        let (fm, nc) = l_panel(false);
        // The L fits nowhere in a straight row of faces.
        assert_eq!(fm.piece_cover(&faces(nc, &[(0, 1), (1, 1), (2, 1)])), None);
        // Of the four placements on the panel, two lie in the left column
        // and the lower middle faces, and together they cover them all.
        let left = faces(nc, &[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)]);
        assert_eq!(
            fm.piece_cover(&left),
            Some(faces(nc, &[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)]))
        );
        let corner = faces(nc, &[(1, 0), (1, 1), (2, 1), (1, 2)]);
        assert_eq!(
            fm.piece_cover(&corner),
            Some(faces(nc, &[(1, 0), (1, 1), (2, 1)]))
        );
        // A region without the piece asks nothing.
        assert_eq!(fm.piece_cover(&faces(nc, &[(0, 0)])), Some(Bits::empty()));
        // Across a pillar's seam: the L at x 2 reaches back to x 0.
        let (fm, nc) = l_panel(true);
        let seam = faces(nc, &[(2, 0), (2, 1), (0, 1)]);
        assert_eq!(fm.piece_cover(&seam.or(&faces(nc, &[(1, 1)]))), Some(seam));
    }

    /// The cover by orientations at once (off pillars) is the union of the
    /// placements inside the region, one by one: on a 5x4 panel with an
    /// L tetromino (rotatable), a fixed S, a domino and a monomino, over
    /// 2,000 random regions (each face in one with odds of 3 in 4).
    #[test]
    fn covers_by_orientation_are_the_placements_one_by_one() {
        let mut p = Puzzle::new(5, 4, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        let pieces = [
            (
                Polyomino::new([(0, 0), (0, 1), (0, 2), (1, 2)], true),
                (1, 1),
            ),
            (
                Polyomino::new([(1, 0), (2, 0), (0, 1), (1, 1)], false),
                (5, 3),
            ),
            (Polyomino::new([(0, 0), (1, 0)], true), (7, 5)),
            (Polyomino::new([(0, 0)], false), (3, 7)),
        ];
        for (shape, (x, y)) in pieces {
            let black = Color::from_name("black");
            p.cell_mut(Pos::new(x, y)).symbol = Some(Symbol::new(SymbolKind::Poly(shape), black));
        }
        let plan = Plan::new(&p).unwrap();
        let fm = FaceMasks::<1>::new(&plan);
        assert!(fm.placements.iter().all(|k| !k.shifts.is_empty()));
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut some = 0;
        for _ in 0..2000 {
            let mut region = Bits::<1>::empty();
            for f in fm.inside.iter() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if !seed.is_multiple_of(4) {
                    region.set(f);
                }
            }
            let mut want = Some(Bits::empty());
            for k in fm.placements.iter().filter(|k| k.at.intersects(&region)) {
                let inside: Vec<_> = k
                    .places
                    .iter()
                    .filter(|pl| pl.and_not(&region).is_empty())
                    .collect();
                want = match (want, inside.is_empty()) {
                    (Some(c), false) => Some(inside.iter().fold(c, |c, pl| c.or(pl))),
                    _ => None,
                };
            }
            some += want.is_some() as u32;
            assert_eq!(fm.piece_cover(&region), want, "region {region:?}");
        }
        assert!(some > 100, "only {some} regions with a cover");
    }

    /// A 3x3 panel with the fixed L piece (`#.` over `##`) on each face of
    /// `at`.
    fn ls_panel(at: &[(usize, usize)]) -> (FaceMasks<1>, usize) {
        let mut p = Puzzle::new(3, 3, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        let shape = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
        for &(x, y) in at {
            p.cell_mut(Pos::new(2 * x + 1, 2 * y + 1)).symbol = Some(Symbol::new(
                SymbolKind::Poly(shape.clone()),
                Color::from_name("black"),
            ));
        }
        let plan = Plan::new(&p).unwrap();
        (FaceMasks::new(&plan), plan.ncols)
    }

    /// `packs` with up to `steps` steps, and the packing it found.
    fn packs(
        fm: &FaceMasks<1>,
        region: &Bits<1>,
        need: &Bits<1>,
        links: &Links<1>,
        steps: u32,
    ) -> (bool, u32, Vec<(u16, u32)>) {
        let inside = Links {
            right: links.right.and(region),
            down: links.down.and(region),
            wrap: links.wrap.and(region),
        };
        let parts = StuckParts::new(fm, inside);
        let (mut left, mut found, mut work) = (steps, Vec::new(), 0);
        let ok = fm.packs(region, need, &parts, &mut left, &mut found, &mut work);
        (ok, left, found)
    }

    fn no_links() -> Links<1> {
        Links {
            right: Bits::empty(),
            down: Bits::empty(),
            wrap: Bits::empty(),
        }
    }

    #[test]
    fn pieces_must_fit_all_at_once() {
        // Each of the two Ls has one placement covering its own face, and
        // both take the centre: each fits, not both.
        let (fm, nc) = ls_panel(&[(0, 0), (2, 2)]);
        let all = faces(nc, &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
            .or(&faces(nc, &[(0, 2), (1, 2), (2, 2)]));
        let need = faces(nc, &[(0, 0), (2, 2)]);
        assert!(fm.piece_cover_of(&all, &need).is_some());
        let (ok, left, _) = packs(&fm, &all, &need, &no_links(), 100);
        assert!(!ok && left > 0, "decided: no packing");
        // Alone, either fits.
        let (fm1, _) = ls_panel(&[(0, 0)]);
        let one = faces(nc, &[(0, 0)]);
        let (ok, _, found) = packs(&fm1, &all, &one, &no_links(), 100);
        assert!(ok);
        assert_eq!(found.len(), 1);
        assert!(fm1.packing_holds(&all, &one, &no_links(), &found));
        // On a wider panel both fit, apart.
        let mut p = Puzzle::new(4, 3, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        let shape = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
        for (x, y) in [(0, 0), (3, 2)] {
            p.cell_mut(Pos::new(2 * x + 1, 2 * y + 1)).symbol = Some(Symbol::new(
                SymbolKind::Poly(shape.clone()),
                Color::from_name("black"),
            ));
        }
        let plan = Plan::new(&p).unwrap();
        let (fm4, nc4) = (FaceMasks::<1>::new(&plan), plan.ncols);
        let wide = fm4.inside;
        let need4 = faces(nc4, &[(0, 0), (3, 2)]);
        let (ok, _, found) = packs(&fm4, &wide, &need4, &no_links(), 100);
        assert!(ok);
        let covered = found.iter().fold(Bits::empty(), |u, &(k, i)| {
            u.or(&fm4.placements[k as usize].places[i as usize])
        });
        assert_eq!(covered.count(), 6, "two placements, apart");
        assert!(need4.and_not(&covered).is_empty());
        // Out of steps, it gives up: the region passes.
        let (ok, left, _) = packs(&fm, &all, &need, &no_links(), 1);
        assert!(ok && left == 0);
    }

    #[test]
    fn pieces_tile_a_region_exactly_or_not() {
        // The fixed L (`#.` over `##`) on a 3x3 panel has four placements,
        // at (0, 0), (1, 0), (0, 1) and (1, 1) (top left). The ones at
        // (1, 0) and (0, 1) are apart: they tile the six faces they cover.
        let (fm, nc) = ls_panel(&[(1, 0), (0, 1)]);
        let region = faces(nc, &[(1, 0), (1, 1), (2, 1), (0, 1), (0, 2), (1, 2)]);
        let mut memo = TileMemo::new(64);
        let mut steps = 100;
        assert_eq!(fm.tiles(&region, &mut steps, &mut memo), Some(true));
        // Out of steps it leaves the question open (one step places one
        // piece).
        let mut memo = TileMemo::new(64);
        assert_eq!(fm.tiles(&region, &mut 1, &mut memo), None);
        assert_eq!(fm.tiles(&region, &mut 2, &mut memo), Some(true));
        // Six faces whose only two placements inside, at (0, 0) and
        // (1, 1), overlap: no tiling, also when asked again (from the kept
        // verdicts, without a step).
        let (fm, nc) = ls_panel(&[(0, 0), (2, 2)]);
        let region = faces(nc, &[(0, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)]);
        let mut memo = TileMemo::new(64);
        assert_eq!(fm.tiles(&region, &mut 100, &mut memo), Some(false));
        assert_eq!(fm.tiles(&region, &mut 0, &mut memo), Some(false));
    }

    #[test]
    fn a_part_the_line_cannot_cut_is_covered_whole_or_not_at_all() {
        let (fm, nc) = ls_panel(&[(1, 1)]);
        // Without (0, 0) the L on the centre has two placements inside:
        // over (1, 1), (1, 2), (2, 2) and over (1, 0), (1, 1), (2, 1).
        let region = faces(nc, &[(1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
            .or(&faces(nc, &[(0, 2), (1, 2), (2, 2)]));
        let need = faces(nc, &[(1, 1)]);
        assert!(packs(&fm, &region, &need, &no_links(), 100).0);
        // Joined for good, (2, 1) and (2, 2) lie in one final region: each
        // placement covers one of them only, and no piece is left for the
        // other.
        let mut links = no_links();
        links.down = faces(nc, &[(2, 1)]);
        let (ok, left, _) = packs(&fm, &region, &need, &links, 100);
        assert!(!ok && left > 0);
        let with_corner = region.or(&faces(nc, &[(0, 0)]));
        let (ok, _, found) = packs(&fm, &with_corner, &need, &links, 100);
        assert!(ok, "the placement over (0, 0) stays clear of the part");
        assert!(fm.packing_holds(&with_corner, &need, &links, &found));
        // That packing no longer holds once the region loses (0, 0), nor
        // once the part reaches into it.
        assert!(!fm.packing_holds(&region, &need, &links, &found));
        let mut reaching = links;
        reaching.right = faces(nc, &[(1, 1)]);
        assert!(!fm.packing_holds(&with_corner, &need, &reaching, &found));
        // A part holding the piece must be covered whole: (1, 1) joined to
        // (2, 1), which is joined to (2, 2), no placement covers.
        let mut joined = no_links();
        joined.right = faces(nc, &[(1, 1)]);
        let need = faces(nc, &[(1, 1), (2, 1)]);
        assert!(packs(&fm, &with_corner, &need, &joined, 100).0);
        joined.down = faces(nc, &[(2, 1)]);
        let need = faces(nc, &[(1, 1), (2, 1), (2, 2)]);
        assert!(!packs(&fm, &with_corner, &need, &joined, 100).0);
    }

    /// A 4x1 panel with pieces: `sizes` gives each face's piece by its
    /// size, negative for a subtractive one (straight pieces), 0 for none.
    fn sized_panel(sizes: [i32; 4]) -> (FaceMasks<1>, usize) {
        let mut p = Puzzle::new(4, 1, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        for (x, &size) in sizes.iter().enumerate() {
            if size == 0 {
                continue;
            }
            let shape = Polyomino::new((0..size.unsigned_abs() as u8).map(|k| (k, 0)), false);
            let kind = if size > 0 {
                SymbolKind::Poly(shape)
            } else {
                SymbolKind::Ylop(shape)
            };
            p.cell_mut(Pos::new(2 * x + 1, 1)).symbol =
                Some(Symbol::new(kind, Color::from_name("yellow")));
        }
        let plan = Plan::new(&p).unwrap();
        (FaceMasks::new(&plan), plan.ncols)
    }

    #[test]
    fn final_regions_count_the_pieces_that_must_go_for_the_area() {
        // A 3, a 2 and a subtractive 1 on faces 0, 1 and 2 of a row.
        let (fm, nc) = sized_panel([3, 2, -1, 0]);
        let at = |xs: &[usize]| faces(nc, &xs.iter().map(|&x| (x, 0)).collect::<Vec<_>>());
        // All three in 4 faces: net 3 + 2 - 1 = 4, as they are.
        assert_eq!(fm.final_pieces_in_excess(&at(&[0, 1, 2, 3])), 0);
        // In 3 faces: all three make 4, any two 1, 2 or 5: only the 3 alone
        // fits, so two go.
        assert_eq!(fm.final_pieces_in_excess(&at(&[0, 1, 2])), 2);
        // The 3 and the 2 in 2 faces: the 2 alone fits, the 3 goes.
        assert_eq!(fm.final_pieces_in_excess(&at(&[0, 1])), 1);
        // The 3 and the subtractive 1 in 2 faces: net 2, as they are.
        assert_eq!(fm.final_pieces_in_excess(&at(&[0, 2])), 0);
        // The 3 in 1 face, or the subtractive 1 alone (net below 0): it goes.
        assert_eq!(fm.final_pieces_in_excess(&at(&[0])), 1);
        assert_eq!(fm.final_pieces_in_excess(&at(&[2, 3])), 1);
        // A 3 and a 1 in 2 faces: 4, 3 and 1 do not fit, so both go.
        let (fm, nc) = sized_panel([3, 1, 0, 0]);
        assert_eq!(fm.final_pieces_in_excess(&faces(nc, &[(0, 0), (1, 0)])), 2);
        // A 2 and a subtractive 2: a net of 0 is left to the fit (the two
        // may cancel out), so none has to go.
        let (fm, nc) = sized_panel([2, -2, 0, 0]);
        let three = faces(nc, &[(0, 0), (1, 0), (2, 0)]);
        assert_eq!(fm.final_pieces_in_excess(&three), 0);
    }
}
