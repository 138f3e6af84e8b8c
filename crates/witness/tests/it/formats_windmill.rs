//! The Windmill decoder: every corpus code decodes, round trips through the
//! other formats, and malformed codes give errors, never panics.

use crate::common;

use std::collections::BTreeMap;

use witness::formats::{self, text, windmill, wpjson, Format};
use witness::model::{Gap, Pos, Puzzle, SlotKind, SymbolKind};
use witness::Error;

const SAMPLES: &str = include_str!("../data/windmill-samples.txt");

fn samples() -> Vec<&'static str> {
    SAMPLES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Corpus codes when the corpus is there, else the bundled samples.
fn all_codes() -> Vec<String> {
    let mut out: Vec<String> = samples().into_iter().map(String::from).collect();
    for f in ["windmill-dev.windmill.txt", "witness-game.windmill.txt"] {
        if let Some(lines) = common::corpus_lines(f) {
            out.extend(lines);
        }
    }
    out
}

/// Tallies of what a puzzle uses, for the corpus statistics checks.
fn tally(p: &Puzzle, t: &mut BTreeMap<&'static str, usize>) {
    for (pos, c) in p.cells() {
        match pos.kind() {
            SlotKind::Face => {
                if let Some(s) = &c.symbol {
                    let k = match &s.kind {
                        SymbolKind::Square => "square",
                        SymbolKind::Star => "star",
                        SymbolKind::Triangle(_) => "triangle",
                        SymbolKind::Nega => "elimination",
                        SymbolKind::Poly(s) if s.rotatable => "free poly",
                        SymbolKind::Poly(_) => "fixed poly",
                        SymbolKind::Ylop(s) if s.rotatable => "blue free",
                        SymbolKind::Ylop(_) => "blue fixed",
                    };
                    *t.entry(k).or_default() += 1;
                }
            }
            SlotKind::Edge => match c.gap {
                Gap::Break => *t.entry("broken").or_default() += 1,
                Gap::Full => *t.entry("absent line").or_default() += 1,
                Gap::None => {}
            },
            SlotKind::Node => {
                if c.gap == Gap::Full {
                    *t.entry("absent point").or_default() += 1;
                }
                if c.start {
                    *t.entry("start").or_default() += 1;
                }
                if c.end.is_some() {
                    *t.entry("end").or_default() += 1;
                }
            }
        }
    }
}

#[test]
fn every_corpus_code_decodes() {
    for (file, want) in [
        ("windmill-dev.windmill.txt", 727),
        ("witness-game.windmill.txt", 195),
    ] {
        let Some(lines) = common::corpus_lines(file) else {
            continue;
        };
        assert_eq!(lines.len(), want, "{file}");
        let mut t = BTreeMap::new();
        for (n, code) in lines.iter().enumerate() {
            // Every line is detected as a Windmill code on its own.
            assert_eq!(
                formats::detect(code),
                Ok(Format::Windmill),
                "{file}:{}",
                n + 1
            );
            let p = formats::read_puzzle(code, None)
                .unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
            tally(&p, &mut t);
        }
        eprintln!("{file}: {t:?}");
        if file.starts_with("witness-game") {
            // The format's reference counts for these files.
            assert_eq!(t["absent line"], 108);
            assert_eq!(t["absent point"], 4);
            assert_eq!(t["star"], 384);
            assert_eq!(t["square"], 347);
            assert_eq!(t["broken"], 220);
            assert_eq!(t["start"], 220);
            assert_eq!(t["end"], 219);
            assert_eq!(t["elimination"], 30);
            assert_eq!(t["fixed poly"], 138);
            assert_eq!(t["free poly"], 26);
            assert_eq!(t["blue fixed"], 21);
        }
    }
}

#[test]
fn bundled_samples_decode() {
    let codes = samples();
    assert!(codes.len() >= 8);
    for code in codes {
        windmill::parse(code).unwrap_or_else(|e| panic!("{code}: {e}"));
    }
}

#[test]
fn sample_features_map_onto_the_model() {
    let codes = samples();
    let ps: Vec<Puzzle> = codes.iter().map(|c| windmill::parse(c).unwrap()).collect();
    // An absent-line panel from the game, a symmetric one, a 5x5 piece, a
    // disconnected piece and a subtractive piece are among the samples.
    assert!(ps
        .iter()
        .any(|p| p.cells().any(|(_, c)| c.gap == Gap::Full)));
    assert!(ps.iter().any(|p| p.symmetry.is_some()));
    let shapes: Vec<_> = ps
        .iter()
        .flat_map(|p| p.cells().filter_map(|(_, c)| c.symbol.clone()))
        .filter_map(|s| match s.kind {
            SymbolKind::Poly(p) | SymbolKind::Ylop(p) => Some(p),
            _ => None,
        })
        .collect();
    assert!(shapes.iter().any(|s| s.bounds() == (5, 5)));
    assert!(shapes.iter().any(|s| !connected(s.cells())));
    assert!(ps.iter().any(|p| p
        .cells()
        .any(|(_, c)| matches!(&c.symbol, Some(s) if matches!(s.kind, SymbolKind::Ylop(_))))));
}

fn connected(cells: &[(u8, u8)]) -> bool {
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        let (x, y) = cells[i];
        for (j, &(a, b)) in cells.iter().enumerate() {
            if !seen[j] && (x.abs_diff(a) + y.abs_diff(b)) == 1 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

#[test]
fn windmill_to_model_to_json_to_model() {
    let mut written = 0;
    let mut too_large = 0;
    for code in all_codes() {
        let p = windmill::parse(&code).unwrap();
        match wpjson::to_string(&p) {
            Ok(json) => {
                let mut back = wpjson::parse(&json).unwrap_or_else(|e| panic!("{code}: {e}"));
                assert_eq!(back.name.as_deref(), Some("Unnamed Puzzle"));
                back.name = None;
                assert_eq!(back, p, "{code}");
                written += 1;
            }
            Err(Error::Unsupported(_)) => {
                // Only pieces beyond the site's 4x4 box cannot be written.
                assert!(p.cells().any(|(_, c)| matches!(&c.symbol,
                    Some(s) if matches!(&s.kind, SymbolKind::Poly(x) | SymbolKind::Ylop(x)
                        if x.bounds().0 > 4 || x.bounds().1 > 4))));
                too_large += 1;
            }
            Err(e) => panic!("{code}: {e}"),
        }
    }
    eprintln!("{written} written as JSON and read back; {too_large} hold pieces larger than 4x4");
    assert!(written > 0);
}

#[test]
fn windmill_to_model_to_text_to_model() {
    for code in all_codes() {
        let p = windmill::parse(&code).unwrap();
        let t = text::to_string(&p);
        let back = text::parse(&t).unwrap_or_else(|e| panic!("{code}: {e}\n{t}"));
        assert_eq!(back, p, "{code}\n{t}");
        assert_eq!(text::to_string(&back), t);
    }
}

#[test]
fn end_caps_point_off_the_grid_or_into_absent_lines() {
    for code in all_codes() {
        let p = windmill::parse(&code).unwrap();
        for e in p.ends() {
            let d = p.cell(e).end.unwrap();
            match p.neighbor(e, d) {
                None => {}
                Some(q) => assert_eq!(p.cell(q).gap, Gap::Full, "{code} end at {e}"),
            }
        }
    }
}

#[test]
fn the_spec_example() {
    let code = "https://windmill.thefifthmatt.com/build/CAUSAggDEgIoBRIJCAkiBQgBEgEBEgASBAgIEAESAigHEgQICzABEgASBAgIEAESAigFEgIIBA==_0";
    let p = formats::read_puzzle(code, None).unwrap();
    let t = text::to_string(&p);
    assert_eq!(
        t,
        "witness 2x2 rules=windmill\nS - + - +\n| A | * |\n+ - + - +\n| 1 | * |\n+ - + - E>\nA = poly #\n"
    );
    assert_eq!(
        p.cell(Pos::new(4, 4)).end,
        Some(witness::model::Direction::Right)
    );
}

/// Encodes bytes as the Windmill does (standard base64 with `-`/`_`).
fn to_code(bytes: &[u8]) -> String {
    windmill::code_of(bytes)
}

#[test]
fn malformed_codes_give_clear_errors() {
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "empty"),
        (
            "CAUSAggDEgIoBRIJCAkiBQgBEgEBEgASBAgIEAESAigHEgQICzABEgASBAgIEAESAigFEgIIBA==".into(),
            "_0",
        ),
        ("windmill.thefifthmatt.com/cmkhg78".into(), "short links"),
        ("C*US_0".into(), "base64"),
        ("_0".into(), "no body"),
        (to_code(&[0x08, 0x05, 0x12, 0x09, 0x08]), "protobuf"),
        (
            to_code(&[0x08, 0x05, 0x12, 0x02, 0x28, 0x07]),
            "not a whole number of rows",
        ),
        (
            to_code(&[0x08, 0x04, 0x12, 0x02, 0x28, 0x0c]),
            "must be odd",
        ),
        (to_code(&[0x08, 0x00, 0x12, 0x00]), "no puzzle"),
        (to_code(&[0x08, 0x03]), "no entities"),
        (
            to_code(&[0x08, 0x03, 0x12, 0x02, 0x08, 0x0d, 0x12, 0x02, 0x28, 0x08]),
            "unknown entity type 13",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x02, 0x08, 0x07, 0x12, 0x02, 0x28, 0x04,
            ]),
            "no colour",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x04, 0x08, 0x07, 0x10, 0x0c, 0x12, 0x02,
                0x28, 0x04,
            ]),
            "unknown colour 12",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x02, 0x08, 0x09, 0x12, 0x02, 0x28, 0x04,
            ]),
            "no shape",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x06, 0x08, 0x09, 0x22, 0x02, 0x08, 0x02,
                0x12, 0x02, 0x28, 0x04,
            ]),
            "invalid shape",
        ),
        (
            to_code(&[0x08, 0x03, 0x12, 0x02, 0x08, 0x07, 0x12, 0x02, 0x28, 0x08]),
            "SQUARE entity on a point",
        ),
        (
            to_code(&[0x08, 0x03, 0x12, 0x02, 0x28, 0x09, 0x18, 0x07]),
            "unknown symmetry",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x0b, 0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                0x01,
            ]),
            "negative run length",
        ),
        (
            to_code(&[0x08, 0x03, 0x12, 0x06, 0x28, 0xff, 0xff, 0xff, 0xff, 0x07]),
            "more than",
        ),
        (to_code(&[0x08, 0xff, 0x01, 0x12, 0x00]), "wide"),
        ("CAUSAggD_0 CAUSAggD_0".into(), "several words"),
    ];
    for (code, want) in cases {
        let e = windmill::parse(&code).expect_err(&code);
        let msg = e.to_string();
        assert!(
            msg.contains(want),
            "{code:?}: {msg:?} should mention {want:?}"
        );
    }
}

#[test]
fn truncated_and_corrupted_codes_never_panic() {
    for code in samples() {
        let bytes = windmill::code_bytes(code).unwrap();
        for cut in 0..bytes.len() {
            let _ = windmill::parse(&to_code(&bytes[..cut]));
        }
        for i in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= flip;
                let _ = windmill::parse(&to_code(&b));
            }
        }
        for cut in 0..code.len() {
            let _ = windmill::parse(&code[..cut]);
        }
    }
}

/// How many corpus codes solve under our rules (figures for the README).
/// Slow: `cargo test --release -p witness --test formats_windmill -- --ignored --nocapture`.
/// `WINDMILL_TIMEOUT_MS` sets the time per puzzle (default 10,000).
#[test]
#[ignore = "a measurement, minutes long"]
fn windmill_solvability_report() {
    use std::time::{Duration, Instant};
    use witness::{Limits, Status};
    let ms: u64 = std::env::var("WINDMILL_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    for file in ["windmill-dev.windmill.txt", "witness-game.windmill.txt"] {
        let Some(lines) = common::corpus_lines(file) else {
            continue;
        };
        let (mut solved, mut unsolvable, mut timeout) = (0, Vec::new(), Vec::new());
        let t0 = Instant::now();
        let mut slowest = (Duration::ZERO, 0);
        for (n, code) in lines.iter().enumerate() {
            let p = windmill::parse(code).unwrap();
            let t = Instant::now();
            let s = witness::solve(
                &p,
                &witness::SolveOptions::default()
                    .with_limits(Limits::timeout(Duration::from_millis(ms))),
            )
            .unwrap();
            let dt = t.elapsed();
            match (&s.path, s.status) {
                (Some(_), _) => {
                    solved += 1;
                    if dt > slowest.0 {
                        slowest = (dt, n + 1);
                    }
                }
                (None, Status::Complete) => unsolvable.push(n + 1),
                (None, Status::Stopped) => timeout.push(n + 1),
            }
        }
        eprintln!(
            "{file}: {} codes, {solved} solved, {} proved unsolvable, {} timed out ({ms} ms each); \
             {:?} in all, slowest solved {:?} (line {})",
            lines.len(),
            unsolvable.len(),
            timeout.len(),
            t0.elapsed(),
            slowest.0,
            slowest.1
        );
        eprintln!("  unsolvable lines: {unsolvable:?}");
        eprintln!("  timed-out lines: {timeout:?}");
    }
}

/// Every code read and written again is read back as the same puzzle, and
/// writing that gives the same code (the writer's output is canonical).
#[test]
fn every_code_written_again_reads_back_the_same() {
    for code in all_codes() {
        let p = windmill::parse(&code).unwrap();
        let again = windmill::to_string(&p).unwrap_or_else(|e| panic!("{code}: {e}"));
        let back = windmill::parse(&again).unwrap_or_else(|e| panic!("{again}: {e}"));
        assert_eq!(back, p, "{code} -> {again}");
        assert_eq!(windmill::to_string(&back).unwrap(), again);
    }
}

/// The spec's example is the Windmill's own encoder's output: one entity a
/// slot, a run of plain slots as one entity with its count (a lone one as
/// an empty entity), the piece without its default colour; written again
/// it is the same code, byte for byte.
#[test]
fn the_spec_example_is_written_byte_for_byte() {
    let code = "CAUSAggDEgIoBRIJCAkiBQgBEgEBEgASBAgIEAESAigHEgQICzABEgASBAgIEAESAigFEgIIBA==_0";
    let p = windmill::parse(code).unwrap();
    assert_eq!(windmill::to_string(&p).unwrap(), code);
    assert_eq!(formats::write_puzzle(&p, Format::Windmill).unwrap(), code);
}

/// The slots of a puzzle as the Windmill keeps them: every cell, with an
/// end's cap direction left out (the Windmill places caps itself).
fn slots_without_caps(p: &Puzzle) -> Vec<witness::model::Cell> {
    p.cells()
        .map(|(_, c)| witness::model::Cell {
            end: c.end.map(|_| witness::model::Direction::Left),
            ..c.clone()
        })
        .collect()
}

/// Every published witnesspuzzles.com puzzle is either written as a code
/// the Windmill reads back as the same panel (same size, symmetry and
/// slots; the caps of its ends may point elsewhere), or refused as
/// unsupported with the reason. Both happen: most panels fit, and some
/// use what the Windmill lacks (coloured dots, pillars, purple, ends
/// on lines). Where the two rule sets agree (no elimination marks, no
/// pieces: [`windmill::judged_differently`] is false), the code read back
/// judges each of the engine's verdict paths as the site judged it on the
/// original.
#[test]
fn site_puzzles_are_written_as_codes_or_refused_with_a_reason() {
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        eprintln!("the corpus is not here: skipped");
        return;
    };
    let mut paths: BTreeMap<String, Vec<(witness::Path, bool)>> = BTreeMap::new();
    for line in common::corpus_lines("witnesspuzzles-dev-verdicts.jsonl").unwrap_or_default() {
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let path = witness::Path::from_site(&v["path"]).unwrap();
        let id = v["id"].as_str().unwrap().to_string();
        paths
            .entry(id)
            .or_default()
            .push((path, v["valid"].as_bool().unwrap()));
    }
    let (mut written, mut refused, mut judged) = (0, 0, 0);
    for line in &lines {
        let (id, json) = common::puzzle_of_line(line);
        let p = wpjson::parse(&json).unwrap_or_else(|e| panic!("{id}: {e}"));
        match windmill::to_string(&p) {
            Ok(code) => {
                let back = windmill::parse(&code).unwrap_or_else(|e| panic!("{id}: {e}"));
                assert_eq!(
                    (back.width(), back.height(), back.pillar(), back.symmetry),
                    (p.width(), p.height(), p.pillar(), p.symmetry),
                    "{id}"
                );
                assert_eq!(slots_without_caps(&back), slots_without_caps(&p), "{id}");
                if !windmill::judged_differently(&p) {
                    for (path, valid) in paths.get(&id).into_iter().flatten() {
                        let v = witness::check(&back, path)
                            .unwrap_or_else(|e| panic!("{id} {path}: {e}"));
                        assert_eq!(v.valid, *valid, "{id} {path}");
                        judged += 1;
                    }
                }
                written += 1;
            }
            Err(Error::Unsupported(m)) => {
                assert!(m.contains("a Windmill code cannot hold it"), "{id}: {m}");
                refused += 1;
            }
            Err(e) => panic!("{id}: {e}"),
        }
    }
    eprintln!(
        "{written} written as Windmill codes; {refused} refused; \
         {judged} verdict paths judged alike on the codes"
    );
    assert!(
        written > lines.len() / 2 && refused > 0,
        "{written} {refused}"
    );
    assert!(paths.is_empty() || judged > 1000, "{judged}");
}

/// The Windmill's rules may judge a panel otherwise only where the two
/// rule sets differ: elimination marks and pieces, under the site's rules.
#[test]
fn the_windmill_judges_otherwise_only_marks_and_pieces() {
    let judged = |t: &str| windmill::judged_differently(&text::parse(t).unwrap());
    let panel = |header: &str, face: &str| {
        let legend = match face {
            "A" => "A = poly #\n",
            "B" => "B = ylop #\n",
            _ => "",
        };
        format!("witness 1x1{header}\n+ - E>\n| {face} |\nS - +\n{legend}")
    };
    for face in ["Y", "A", "B"] {
        assert!(judged(&panel("", face)), "{face}");
        assert!(!judged(&panel(" rules=windmill", face)), "{face}");
    }
    for face in ["#", "*", "2", "."] {
        assert!(!judged(&panel("", face)), "{face}");
    }
}

/// One panel with each element a code holds, written and read back: the
/// entities are the Windmill's (NONE for removed points and lines,
/// DISJOINT for broken lines, HEXAGON for dots on points and lines), the
/// default colours are left out and the others written, and the puzzle
/// reads back the same, its ends' caps included (each end is on the
/// border, its cap pointing off the panel as the Windmill places it).
#[test]
fn each_element_is_written_as_the_windmill_writes_it() {
    let text = "witness 3x2\n\
                S - ~ -  + - E>\n\
                | 2 | Yr | A |\n\
                + x + o  ~ - +\n\
                o Bm | 3g | Y |\n\
                + - + -  + - +\n\
                A = poly rot ##\n\
                B = ylop #\n";
    let p = text::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let code = windmill::to_string(&p).unwrap();
    let mut back = windmill::parse(&code).unwrap();
    back.rules = p.rules;
    assert_eq!(back, p, "{code}");
    let storage = windmill::decode_storage(&code).unwrap();
    // The store grid, expanded: slot (x, y) is entity x + 7 y.
    let mut store = Vec::new();
    for e in &storage.entity {
        for _ in 0..e.count.max(1) {
            store.push(e.clone());
        }
    }
    assert_eq!((storage.width, store.len()), (7, 35));
    let at = |x: usize, y: usize| &store[x + 7 * y];
    use windmill::entity_type as t;
    assert_eq!(at(0, 0).r#type, t::START);
    assert_eq!(at(2, 0).r#type, t::NONE);
    assert_eq!(at(6, 0).r#type, t::END);
    assert_eq!(at(1, 2).r#type, t::DISJOINT);
    assert_eq!(at(3, 2).r#type, t::HEXAGON);
    assert_eq!(at(4, 2).r#type, t::NONE);
    assert_eq!(at(0, 3).r#type, t::HEXAGON);
    // Two orange triangles: the colour is the default, left out. Three
    // green ones: green is 7.
    let tri = |e: &windmill::proto::Entity| (e.r#type, e.color, e.triangle_count);
    assert_eq!(tri(at(1, 1)), (t::TRIANGLE, 0, 2));
    assert_eq!(tri(at(3, 3)), (t::TRIANGLE, 7, 3));
    // A red mark (6), a white one (the default).
    assert_eq!((at(3, 1).r#type, at(3, 1).color), (t::ERROR, 6));
    assert_eq!((at(5, 3).r#type, at(5, 3).color), (t::ERROR, 0));
    // A yellow domino that turns (the default colour), and a magenta (4)
    // subtractive monomino.
    let a = at(5, 1);
    assert_eq!((a.r#type, a.color), (t::TETRIS, 0));
    let shape = a.shape.as_ref().unwrap();
    assert_eq!(
        (shape.width, &shape.grid[..], shape.free, shape.negative),
        (2, &[true, true][..], true, false)
    );
    let b = at(1, 3);
    assert_eq!((b.r#type, b.color), (t::TETRIS, 4));
    assert!(b.shape.as_ref().unwrap().negative);
    // Symmetry: each kind written as its number and read back.
    for (sym, n) in [("x", 2), ("y", 3), ("xy", 4)] {
        let t = format!(
            "witness 2x2 symmetry={sym}\nS - + - S\n| . | . |\n+ - + - +\n| . | . |\nS - + - S\n"
        );
        let p = text::parse(&t).unwrap();
        let code = windmill::to_string(&p).unwrap_or_else(|e| panic!("{sym}: {e}"));
        assert_eq!(windmill::decode_storage(&code).unwrap().symmetry, n);
        assert_eq!(windmill::parse(&code).unwrap().symmetry, p.symmetry);
    }
}

/// What the Windmill cannot hold is refused, each with its reason and
/// place (slot coordinates).
#[test]
fn what_the_windmill_cannot_hold_is_refused_by_name() {
    let refused = |text: &str, says: &[&str]| {
        let p = text::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        match windmill::to_string(&p) {
            Err(Error::Unsupported(m)) => {
                for s in says {
                    assert!(m.contains(s), "{m:?} should say {s:?}\n{text}");
                }
            }
            other => panic!("{other:?}\n{text}"),
        }
    };
    // A purple square on face (1, 1): the Windmill has no purple.
    refused(
        "witness 1x1\n+ - E>\n| #p |\nS - +\n",
        &["square", "(1, 1)", "purple"],
    );
    // A blue dot on the top node (2, 0) of a symmetry panel.
    refused(
        "witness 2x1 symmetry=x\n+ - b - +\n| . | . |\nS - + - S\n",
        &["blue dot", "(2, 0)"],
    );
    // A start in the middle of the top edge (1, 0).
    refused(
        "witness 1x1\n+ S +\n| . |\n+ - E>\n",
        &["start on a line", "(1, 0)"],
    );
    // An end on the middle node (2, 2) of a 2x2 panel: no side leaves the
    // panel there, and no line beside it is removed.
    refused(
        "witness 2x2\nS - + - +\n| . | . |\n+ - E^ - +\n| . | . |\n+ - + - +\n",
        &["an end at (2, 2)", "cap"],
    );
    // A start and an end on one node (an Alcazar door).
    refused(
        "witness 1x1\nSE< - +\n| . |\n+ - +\n",
        &["a start and an end together at (0, 0)"],
    );
    // A start at (0, 2) whose mirror image (4, 2) is not one: the Windmill
    // would make it one.
    refused(
        "witness 2x1 symmetry=x\n+ - + - +\n| . | . |\nS - + - +\n",
        &["start whose mirror image is not one", "(0, 2)"],
    );
    // No triangles: the Windmill reads a count of 0 as 1.
    refused(
        "witness 1x1\n+ - E>\n| 0 |\nS - +\n",
        &["triangle", "(1, 1)", "count 0"],
    );
    // An empty piece.
    refused(
        "witness 1x1\n+ - E>\n| A |\nS - +\nA = poly -\n",
        &["empty piece", "(1, 1)"],
    );
    // A square on face (1, 1), cut off from the panel by removed lines:
    // the site leaves it out, the Windmill would judge it.
    refused(
        "witness 2x1\n+ ~ + - E>\n~ #r ~ . |\n+ ~ + - S\n",
        &["cut the face at (1, 1) off the panel", "(1, 1)"],
    );
    // The empty top middle face (3, 1) cut off by a removed line: on the
    // site the line below it parts the black and the white square; in the
    // Windmill that face joins their regions.
    refused(
        "witness 3x2\n+ - + ~ + - +\n| # | . | #w |\n+ - + - + - +\n| . | . | . |\nS - + - + - E>\n",
        &["cut the face at (3, 1) off the panel", "(1, 1)"],
    );
    // Triangles do not look at regions: a face cut off is no matter.
    let p = text::parse("witness 2x1\n+ ~ + - E>\n~ . | 1 |\n+ ~ + - S\n").unwrap();
    assert!(windmill::to_string(&p).is_ok());
    // Pieces whose bounding boxes would make a code of hundreds of
    // megabytes: a 255 x 255 box (two squares at its corners) on each of
    // 25 faces.
    let mut big = "witness 5x5\n".to_string();
    big += &["+ - + - + - + - + - E>"].concat();
    big += "\n";
    for y in 0..5 {
        big += "| A | A | A | A | A |\n";
        big += if y == 4 {
            "S - + - + - + - + - +\n"
        } else {
            "+ - + - + - + - + - +\n"
        };
    }
    big += &format!(
        "A = poly #{}/{}#\n",
        ".".repeat(254),
        "/".repeat(253) + &".".repeat(254)
    );
    refused(&big, &["bounding boxes", "1048576"]);
    // A pillar.
    refused(
        "witness 2x1 pillar\nS - + - \n| . | . \nE - + - \n",
        &["pillar"],
    );
    // A line drawn either way (an Alcazar maze's).
    refused(
        "witness 1x1 undirected\nS - +\n| . |\n+ - E>\n",
        &["either way"],
    );
}
