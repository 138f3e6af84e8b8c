//! What a generated puzzle holds: the symbol mix ([`Spec`]), its text form
//! (the `--symbols` grammar) and the named mixes ([`Preset`]).
//!
//! The grammar is a comma-separated list of `KIND=N` items, with
//! `KIND=N/C` for squares and stars (`N` symbols in `C` colours):
//!
//! ```text
//! spec  = item ("," item)*
//! item  = kind "=" count ["/" colours]
//! kind  = dots | squares | stars | triangles | polyominoes | rotatable
//!       | subtractive | marks
//! ```
//!
//! `rotatable` says how many of the `polyominoes` may turn, `subtractive`
//! adds that many subtractive pieces. A kind may be named once; amounts are
//! whole numbers up to [`MAX_AMOUNT`], colours 1 to [`MAX_COLORS`].

use crate::error::{Error, Result};
use crate::model::Symmetry;

/// The largest amount one `KIND=N` item may ask for.
pub const MAX_AMOUNT: usize = 10_000;
/// The most colours squares or stars may use.
pub const MAX_COLORS: usize = 6;

/// The symbols a generated puzzle starts from: how many of each kind are
/// placed along its line before the uniqueness is enforced (which may add
/// more of the same kinds, never of others).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    /// Black hexagon dots on the line.
    pub dots: usize,
    /// Coloured squares.
    pub squares: usize,
    /// How many colours the squares use (at least 1 when there are squares).
    pub square_colors: usize,
    /// Stars (placed in pairs of one colour).
    pub stars: usize,
    /// How many colours the stars use.
    pub star_colors: usize,
    /// Triangles.
    pub triangles: usize,
    /// Polyominoes (fixed or rotatable).
    pub polyominoes: usize,
    /// How many of the polyominoes may be rotated.
    pub rotatable: usize,
    /// Subtractive polyominoes.
    pub subtractive: usize,
    /// Elimination marks (each with a symbol it erases).
    pub marks: usize,
}

impl Spec {
    /// Reads the `--symbols` grammar; a bad item gives one
    /// [`Error::Options`] line naming it.
    ///
    /// The grammar is a comma-separated list of `KIND=N` items, with
    /// `KIND=N/C` for squares and stars (`N` symbols in `C` colours):
    ///
    /// ```text
    /// spec  = item ("," item)*
    /// item  = kind "=" count ["/" colours]
    /// kind  = dots | squares | stars | triangles | polyominoes | rotatable
    ///       | subtractive | marks
    /// ```
    ///
    /// `rotatable` says how many of the `polyominoes` may turn, `subtractive`
    /// adds that many subtractive pieces. A kind may be named once; amounts are
    /// whole numbers up to [`MAX_AMOUNT`], colours 1 to [`MAX_COLORS`].
    pub fn parse(text: &str) -> Result<Spec> {
        let bad = |m: String| Error::Options(format!("bad symbol spec: {m}"));
        let mut spec = Spec::default();
        let mut seen: Vec<&str> = Vec::new();
        let text = text.trim();
        if text.is_empty() {
            return Err(bad("it is empty (e.g. squares=6/2,stars=4)".into()));
        }
        for item in text.split(',') {
            let item = item.trim();
            let (kind, value) = item
                .split_once('=')
                .ok_or_else(|| bad(format!("\"{item}\" is not KIND=N")))?;
            let kind = kind.trim();
            let (amount, colors) = match value.split_once('/') {
                Some((a, c)) => (a, Some(c)),
                None => (value, None),
            };
            let number = |s: &str, what: &str| -> Result<usize> {
                s.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= MAX_AMOUNT)
                    .ok_or_else(|| {
                        bad(format!(
                            "\"{item}\": {what} must be a whole number up to {MAX_AMOUNT}"
                        ))
                    })
            };
            let n = number(amount, "the amount")?;
            let c = match colors {
                Some(c) => {
                    let c = number(c, "the colours")?;
                    if !(1..=MAX_COLORS).contains(&c) {
                        return Err(bad(format!(
                            "\"{item}\": colours must be 1 to {MAX_COLORS}"
                        )));
                    }
                    Some(c)
                }
                None => None,
            };
            if c.is_some() && !matches!(kind, "squares" | "stars") {
                return Err(bad(format!(
                    "\"{item}\": only squares and stars take /COLOURS"
                )));
            }
            if seen.contains(&kind) {
                return Err(bad(format!("\"{kind}\" is named twice")));
            }
            match kind {
                "dots" => spec.dots = n,
                "squares" => {
                    spec.squares = n;
                    spec.square_colors = c.unwrap_or(2);
                }
                "stars" => {
                    spec.stars = n;
                    spec.star_colors = c.unwrap_or(1);
                }
                "triangles" => spec.triangles = n,
                "polyominoes" => spec.polyominoes = n,
                "rotatable" => spec.rotatable = n,
                "subtractive" => spec.subtractive = n,
                "marks" => spec.marks = n,
                _ => {
                    return Err(bad(format!(
                        "unknown kind \"{kind}\" (dots, squares, stars, triangles, \
                         polyominoes, rotatable, subtractive, marks)"
                    )))
                }
            }
            seen.push(kind);
        }
        spec.validate()?;
        Ok(spec)
    }

    /// An [`Error::Options`] for a spec no puzzle can meet, whether read by
    /// [`Spec::parse`] or built field by field: no symbol at all, an
    /// amount past [`MAX_AMOUNT`], squares or stars without colours or
    /// with more than [`MAX_COLORS`], more rotatable pieces than
    /// polyominoes, subtractive pieces without polyominoes.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Error::Options(format!("bad symbol spec: {m}"));
        let rotatable = ("rotatable", self.rotatable);
        let amounts = self.amounts();
        if let Some((kind, n)) = amounts
            .iter()
            .chain([&rotatable])
            .find(|(_, n)| *n > MAX_AMOUNT)
        {
            return Err(bad(format!("{kind}={n}: at most {MAX_AMOUNT}")));
        }
        for (kind, n, colors) in [
            ("squares", self.squares, self.square_colors),
            ("stars", self.stars, self.star_colors),
        ] {
            if n > 0 && !(1..=MAX_COLORS).contains(&colors) {
                return Err(bad(format!(
                    "{kind}={n}/{colors}: colours must be 1 to {MAX_COLORS}"
                )));
            }
        }
        if self.rotatable > self.polyominoes {
            return Err(bad(format!(
                "rotatable={} is more than polyominoes={}",
                self.rotatable, self.polyominoes
            )));
        }
        if self.subtractive > 0 && self.polyominoes == 0 {
            return Err(bad("subtractive pieces need polyominoes=N too".into()));
        }
        if self.is_empty() {
            return Err(bad("it asks for no symbol at all".into()));
        }
        Ok(())
    }

    /// True when the spec asks for no symbol.
    pub fn is_empty(&self) -> bool {
        self.dots
            + self.squares
            + self.stars
            + self.triangles
            + self.polyominoes
            + self.subtractive
            + self.marks
            == 0
    }

    /// The kinds the spec names, by their names in the grammar.
    pub fn kinds(&self) -> Vec<&'static str> {
        self.amounts()
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|(name, _)| name)
            .collect()
    }

    /// Each kind's name in the grammar and its amount (rotatable pieces
    /// are among the polyominoes, not a kind of their own).
    fn amounts(&self) -> [(&'static str, usize); 7] {
        [
            ("dots", self.dots),
            ("squares", self.squares),
            ("stars", self.stars),
            ("triangles", self.triangles),
            ("polyominoes", self.polyominoes),
            ("subtractive", self.subtractive),
            ("marks", self.marks),
        ]
    }
}

impl std::fmt::Display for Spec {
    /// The grammar's form, which [`Spec::parse`] reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut items = Vec::new();
        let mut push = |name: &str, n: usize, c: Option<usize>| {
            if n > 0 {
                items.push(match c {
                    Some(c) => format!("{name}={n}/{c}"),
                    None => format!("{name}={n}"),
                });
            }
        };
        push("dots", self.dots, None);
        push("squares", self.squares, Some(self.square_colors));
        push("stars", self.stars, Some(self.star_colors));
        push("triangles", self.triangles, None);
        push("polyominoes", self.polyominoes, None);
        push("rotatable", self.rotatable, None);
        push("subtractive", self.subtractive, None);
        push("marks", self.marks, None);
        f.write_str(&items.join(","))
    }
}

/// A named mix of symbols, one per mechanic and a mix of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Black dots on the line.
    Dots,
    /// Squares of two colours (three on panels of 16 faces or more).
    Squares,
    /// Stars in pairs, with a few squares of two colours (a star may pair
    /// with a square of its colour); from 36 faces, three pairs of one
    /// colour among squares of three.
    Stars,
    /// Triangles.
    Triangles,
    /// Polyominoes, some rotatable, with a few dots.
    Polyominoes,
    /// Polyominoes with subtractive pieces.
    Subtractive,
    /// Elimination marks, each erasing a symbol the line breaks, among squares.
    Elimination,
    /// A mirrored pair of lines (left-right, top-bottom or both) with dots
    /// and triangles.
    Symmetry,
    /// A pillar panel (wrapping round) with squares and triangles.
    Pillar,
    /// At least two kinds: squares, stars, dots, triangles, and polyominoes
    /// on panels of 9 faces or more.
    Mixed,
}

impl Preset {
    /// Every preset, in the order `--help` lists them.
    pub const ALL: [Preset; 10] = [
        Preset::Dots,
        Preset::Squares,
        Preset::Stars,
        Preset::Triangles,
        Preset::Polyominoes,
        Preset::Subtractive,
        Preset::Elimination,
        Preset::Symmetry,
        Preset::Pillar,
        Preset::Mixed,
    ];

    /// The preset's name.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Dots => "dots",
            Preset::Squares => "squares",
            Preset::Stars => "stars",
            Preset::Triangles => "triangles",
            Preset::Polyominoes => "polyominoes",
            Preset::Subtractive => "subtractive",
            Preset::Elimination => "elimination",
            Preset::Symmetry => "symmetry",
            Preset::Pillar => "pillar",
            Preset::Mixed => "mixed",
        }
    }

    /// The preset called `name`, or a one-line error listing them.
    pub fn from_name(name: &str) -> Result<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
                Error::Options(format!(
                    "unknown preset \"{name}\" (one of {})",
                    names.join(", ")
                ))
            })
    }

    /// The symbols for a panel of `w x h` faces: amounts grow with the
    /// number of faces.
    pub fn spec(self, w: usize, h: usize) -> Spec {
        let f = w * h;
        let scale = |num: usize, den: usize, min: usize| (f * num / den).max(min);
        match self {
            Preset::Dots => Spec {
                dots: scale(1, 3, 1),
                ..Spec::default()
            },
            Preset::Squares => Spec {
                squares: scale(1, 3, 2),
                square_colors: if f >= 16 { 3 } else { 2 },
                ..Spec::default()
            },
            // From 36 faces: three pairs in one colour and squares in
            // three, so that most squares cut as the SAT engine's rounds
            // keep their clauses (a square of a star's colour starts them
            // over) and the first rounds are not choked by stars.
            Preset::Stars if f >= 36 => Spec {
                stars: 6,
                star_colors: 1,
                squares: scale(1, 8, 1),
                square_colors: 3,
                ..Spec::default()
            },
            Preset::Stars => Spec {
                stars: 2 * scale(1, 8, 1),
                star_colors: if f >= 16 { 2 } else { 1 },
                squares: scale(1, 8, 1),
                square_colors: 2,
                ..Spec::default()
            },
            Preset::Triangles => Spec {
                triangles: scale(1, 4, 1),
                ..Spec::default()
            },
            Preset::Polyominoes => Spec {
                polyominoes: scale(1, 6, 1),
                rotatable: scale(1, 12, 0),
                dots: scale(1, 12, 0),
                ..Spec::default()
            },
            Preset::Subtractive => Spec {
                polyominoes: scale(1, 6, 2),
                subtractive: 1,
                dots: scale(1, 12, 0),
                ..Spec::default()
            },
            Preset::Elimination => Spec {
                marks: 1,
                squares: scale(1, 4, 1),
                square_colors: 2,
                ..Spec::default()
            },
            Preset::Symmetry => Spec {
                dots: scale(1, 6, 1),
                triangles: scale(1, 8, 1),
                ..Spec::default()
            },
            Preset::Pillar => Spec {
                squares: scale(1, 5, 2),
                square_colors: 2,
                triangles: scale(1, 8, 1),
                ..Spec::default()
            },
            Preset::Mixed => Spec {
                squares: scale(1, 8, 1),
                square_colors: 2,
                stars: if f >= 6 { 2 } else { 0 },
                star_colors: 1,
                dots: scale(1, 10, 1),
                triangles: scale(1, 10, 1),
                polyominoes: if f >= 9 { scale(1, 16, 1) } else { 0 },
                rotatable: 0,
                ..Spec::default()
            },
        }
    }

    /// The panel's frame for this preset: a symmetry or a pillar where the
    /// preset is about one (the symmetry's axes drawn from `choice`).
    pub fn frame(self, choice: u64) -> (Option<Symmetry>, bool) {
        match self {
            Preset::Symmetry => {
                let s = match choice % 3 {
                    0 => Symmetry { x: true, y: false },
                    1 => Symmetry { x: false, y: true },
                    _ => Symmetry { x: true, y: true },
                };
                (Some(s), false)
            }
            Preset::Pillar => (None, true),
            _ => (None, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_round_trip() {
        let s = Spec::parse("squares=6/2,stars=4,dots=5,triangles=4,polyominoes=3,rotatable=1,subtractive=1,marks=1").unwrap();
        assert_eq!(s.squares, 6);
        assert_eq!(s.square_colors, 2);
        assert_eq!(s.stars, 4);
        assert_eq!(s.star_colors, 1);
        assert_eq!(Spec::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn bad_specs_are_one_line_errors() {
        for bad in [
            "",
            "squares",
            "squares=x",
            "dots=1/2",
            "squares=2/0",
            "squares=2/9",
            "dots=1,dots=2",
            "hexagons=2",
            "rotatable=2,polyominoes=1",
            "subtractive=1",
            "dots=0",
            "dots=99999999",
        ] {
            let e = Spec::parse(bad).unwrap_err();
            assert!(matches!(e, Error::Options(_)), "{bad}: {e}");
            assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn presets_by_name() {
        for p in Preset::ALL {
            assert_eq!(Preset::from_name(p.name()).unwrap(), p);
            for (w, h) in [(1, 1), (2, 2), (4, 4), (10, 10)] {
                assert!(!p.spec(w, h).is_empty());
            }
        }
        assert!(Preset::from_name("nope").is_err());
    }
}
