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
//! Regions without faces (a dotted strip along removed faces) are not seen
//! here; the search leaves them to the final validation.

use super::bits::Bits;
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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Links<const N: usize> {
    /// Face `f` joins face `f + 1`.
    pub right: Bits<N>,
    /// Face `f` joins face `f + ncols`.
    pub down: Bits<N>,
    /// Last-column face `f` joins the first-column face of its row.
    pub wrap: Bits<N>,
}

impl<const N: usize> Links<N> {
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
    /// The face links decide regions exactly: no face is removed. (Around
    /// removed faces, nodes and edges beside them join faces that share no
    /// edge; such boards need slot-by-slot floods.)
    pub exact: bool,
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
    /// Any polyomino, subtractive or not.
    pub any_poly: Bits<N>,
}

impl<const N: usize> FaceMasks<N> {
    /// Builds the tables for a plan.
    pub fn new(p: &Plan) -> Self {
        let b = &p.rules.board;
        let ncols = p.ncols;
        let n = b.len();
        let mut m = FaceMasks {
            exact: (0..n).all(|i| b.kind[i] != SlotKind::Face || !b.outside[i]),
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
            any_poly: Bits::empty(),
        };
        for v in 0..p.nodes() {
            if v % ncols == ncols - 1 {
                m.last_col.set(v);
            } else {
                m.not_last.set(v);
            }
        }
        for i in 0..n {
            if b.kind[i] != SlotKind::Face {
                continue;
            }
            let (x, y) = (i / b.h, i % b.h);
            let f = (y / 2) * ncols + x / 2;
            m.face_of[i] = f as u32;
            m.slot_of[f] = i as u32;
            if !b.outside[i] {
                m.inside.set(f);
            }
        }
        let inside_face =
            |s: u32| s != NONE && m.face_of[s as usize] != NONE && !b.outside[s as usize];
        let mut links = Vec::new();
        for i in 0..n {
            if b.kind[i] != SlotKind::Edge {
                continue;
            }
            let x = i / b.h;
            // Left/up face and right/down face of the edge (nbr: left, right, up, down).
            let (a, c) = if x.is_multiple_of(2) {
                (b.nbr[i][0], b.nbr[i][1])
            } else {
                (b.nbr[i][2], b.nbr[i][3])
            };
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
            links.push((i, link));
        }
        for (i, link) in links {
            m.links.put(link, true);
            if p.enterable[i] {
                m.enterable.put(link, true);
            }
        }
        for i in 0..n {
            if b.kind[i] != SlotKind::Node {
                continue;
            }
            let mut k = 0;
            for f in p.faces_around[i] {
                if f != NONE && !b.outside[f as usize] {
                    m.around[i][k] = m.face_of[f as usize];
                    k += 1;
                }
            }
        }
        let mut square_colors: Vec<u8> = Vec::new();
        let mut star_colors: Vec<u8> = Vec::new();
        for i in 0..n {
            let f = m.face_of[i];
            if f == NONE || b.outside[i] {
                continue;
            }
            let f = f as usize;
            match b.sym[i] {
                Sym::Square if !square_colors.contains(&b.color[i]) => {
                    square_colors.push(b.color[i])
                }
                Sym::Star if !star_colors.contains(&b.color[i]) => star_colors.push(b.color[i]),
                Sym::Poly(k) => {
                    let size = b.shapes[k as usize].size() as u32;
                    match m.polys.iter_mut().find(|(s, _)| *s == size) {
                        Some((_, set)) => set.set(f),
                        None => {
                            let mut set = Bits::empty();
                            set.set(f);
                            m.polys.push((size, set));
                        }
                    }
                    m.any_poly.set(f);
                }
                Sym::Ylop(_) => {
                    m.ylops.set(f);
                    m.any_poly.set(f);
                }
                Sym::Nega => m.negas.set(f),
                _ => {}
            }
        }
        let faces_where = |pred: &dyn Fn(usize) -> bool| {
            let mut set = Bits::<N>::empty();
            for i in 0..n {
                let f = m.face_of[i];
                if f != NONE && !b.outside[i] && b.sym[i] != Sym::Empty && pred(i) {
                    set.set(f as usize);
                }
            }
            set
        };
        m.squares = square_colors
            .iter()
            .map(|&c| faces_where(&|i| b.sym[i] == Sym::Square && b.color[i] == c))
            .collect();
        m.stars = star_colors
            .iter()
            .map(|&c| StarColor {
                stars: faces_where(&|i| b.sym[i] == Sym::Star && b.color[i] == c),
                all: faces_where(&|i| b.color[i] == c),
            })
            .collect();
        for (size, set) in &m.polys {
            if *size > 0 {
                m.sized_polys = m.sized_polys.or(set);
            }
        }
        m.open_checks = !m.squares.is_empty() || !m.stars.is_empty() || !m.polys.is_empty();
        for set in m.squares.iter().chain(m.stars.iter().map(|s| &s.stars)) {
            m.colored_squares_stars = m.colored_squares_stars.or(set);
        }
        m
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

    /// The total size of the (not subtractive) polyominoes in `region`.
    #[inline]
    pub fn area(&self, region: &Bits<N>) -> u32 {
        self.polys
            .iter()
            .map(|(size, set)| size * region.and(set).count())
            .sum()
    }

    /// The faces joined to `seed` under `links`.
    #[inline]
    pub fn flood(&self, seed: Bits<N>, links: &Links<N>) -> Bits<N> {
        let nc = self.ncols;
        let mut cur = seed;
        loop {
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
            if nx == cur {
                return cur;
            }
            cur = nx;
        }
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
    /// either not enterable or with no end node in `reach`.
    #[inline]
    pub fn stuck(&self, links: &Links<N>, reach: &Bits<N>) -> Links<N> {
        let below = reach.shr(self.ncols);
        let rows = reach.or(&below);
        // A vertical edge east of face f: the east nodes of both rows.
        let cut_r = self.east(&rows);
        // A horizontal edge below face f: both nodes of the row below.
        let cut_d = below.or(&self.east(&below));
        Links {
            right: links.right.and_not(&self.enterable.right.and(&cut_r)),
            down: links.down.and_not(&self.enterable.down.and(&cut_d)),
            wrap: links.wrap.and_not(&self.enterable.wrap.and(&cut_r)),
        }
    }
}
