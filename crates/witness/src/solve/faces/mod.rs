//! Regions as bitsets of faces: the search's fast region floods.
//!
//! Two inside faces side by side are in the same region exactly when the edge
//! between them is not a wall (`docs/rules.md#regions`: a node the line has not
//! covered has no covered edges, so it never joins faces that their shared
//! edges do not already join). The search keeps one bit per such link and
//! clears it while the line covers the edge; a region is then a flood fill over
//! face bitsets, a few word operations per step instead of a walk over every
//! slot.
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
}

mod flood;
mod tiling;

pub use flood::coverable;
pub use tiling::StuckParts;

#[cfg(test)]
mod tests;
