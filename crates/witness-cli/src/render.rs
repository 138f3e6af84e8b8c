//! `witness render`: draws a panel, with a path or its solution, as SVG or
//! PNG (rasterised with resvg).

use std::time::Instant;

use clap::Args as ClapArgs;
use serde_json::{json, Value};
use witness::formats::Format;
use witness::model::Puzzle;
use witness::render::{self as draw, SvgOptions};
use witness::{Error, Limits, Path, SolveOptions, Status, Verdict};

use crate::input;
use crate::{EXIT_BAD_INPUT, EXIT_DONE, EXIT_NO, EXIT_STOPPED};
use witness::request::verdict as verdict_json;

/// The largest PNG side, in pixels, `--scale` may produce.
pub const MAX_PNG_SIDE: u32 = 8192;

/// Options of `witness render`.
#[derive(ClapArgs)]
pub struct Args {
    /// The puzzle file, or `-` for standard input.
    puzzle: String,
    /// Draw this path (site JSON, a move string such as `0,6:R6U4`, or
    /// `[[x,y],…]`); its failing symbols are ringed in red. The picture is
    /// made whatever the verdict; the exit code is the verdict's, as
    /// `check` gives it (1 invalid, 2 not a legal line).
    #[arg(long, conflicts_with = "solve")]
    path: Option<String>,
    /// Solve the puzzle and draw the solution; on a panel with no
    /// solution (exit 1), ring the symbols that cannot all be satisfied.
    #[arg(long)]
    solve: bool,
    /// The output file: `.svg` or `.png`; standard output (SVG) when left out.
    #[arg(short, long)]
    output: Option<String>,
    /// Size factor for PNG output, from 0.05 to 100.
    #[arg(long, default_value_t = 1.0, value_parser = parse_scale)]
    scale: f32,
    /// Give up solving, or checking the path, after this many milliseconds
    /// (0: no limit).
    #[arg(long, default_value_t = 60_000)]
    timeout_ms: u64,
    /// The puzzle's format, `json`, `windmill`, `alcazar` or `text`
    /// (guessed when left out).
    #[arg(long, value_parser = input::parse_format)]
    format: Option<Format>,
    #[command(flatten)]
    pick: input::Pick,
    /// Print `{"svg", "path", "moves", "valid", "invalid", …}` as JSON
    /// instead of writing a file.
    #[arg(long, conflicts_with = "output")]
    json: bool,
    /// The rules that judge the path or the solution, and so which faces
    /// are drawn (the Windmill's keep the faces cut off by removed lines):
    /// `witnesspuzzles` or `windmill` (default: the Windmill's for Windmill
    /// codes, the site's for the rest).
    #[arg(long, value_parser = input::parse_rules)]
    rules: Option<witness::model::RuleSet>,
}

impl Args {
    /// Whether `--json` asks for the answer as JSON.
    pub fn json(&self) -> bool {
        self.json
    }
}

/// What to draw on the panel.
pub enum Line {
    /// The bare panel.
    None,
    /// A given path.
    Path(Path),
    /// The solution, searched within the limits.
    Solve,
}

/// A drawn panel and what was learnt drawing it.
pub struct Rendered {
    /// The SVG document.
    pub svg: String,
    /// The path drawn, if any.
    pub path: Option<Path>,
    /// The verdict on the path, when it is legal.
    pub verdict: Option<Verdict>,
    /// Why the path is illegal, when it is.
    pub illegal: Option<String>,
    /// For `Line::Solve`: `solved`, `none` or `timeout`; for a path whose
    /// check the limits stopped: `timeout`.
    pub status: Option<&'static str>,
    /// Milliseconds spent solving.
    pub ms: f64,
    /// For `Line::Solve` on a panel with no solution: the symbols that
    /// cannot all be satisfied ([`witness::why()`]), ringed.
    pub why: Option<witness::Why>,
}

/// Draws `puzzle` with `line`; a path's failing elements are highlighted.
/// Solving and checking the path stop at `limits`.
pub fn render(puzzle: &Puzzle, line: Line, limits: &Limits) -> Result<Rendered, String> {
    let mut status = None;
    let mut ms = 0.0;
    let mut why = None;
    let path = match line {
        Line::None => None,
        Line::Path(p) => Some(p),
        Line::Solve => {
            let t0 = Instant::now();
            let sol = witness::solve(puzzle, &SolveOptions::default().with_limits(limits.clone()))
                .map_err(|e| e.to_string())?;
            ms = t0.elapsed().as_secs_f64() * 1e3;
            status = Some(match (&sol.path, sol.status) {
                (Some(_), _) => "solved",
                (None, Status::Complete) => "none",
                (None, Status::Stopped) => "timeout",
            });
            if status == Some("none") {
                let options = witness::WhyOptions::default().with_limits(limits.clone());
                why = witness::why(puzzle, &options).ok();
            }
            sol.path
        }
    };
    let (mut verdict, mut illegal) = (None, None);
    if let Some(p) = &path {
        match witness::check_within(puzzle, p, limits) {
            Ok(v) => verdict = Some(v),
            Err(Error::Stopped) => status = Some("timeout"),
            Err(e @ Error::Path(_)) => illegal = Some(e.to_string()),
            Err(e) => return Err(e.to_string()),
        }
    }
    let opts = SvgOptions {
        highlight: verdict
            .as_ref()
            .map(|v| v.invalid.iter().map(|f| f.pos).collect())
            .or_else(|| why.as_ref().map(|w| w.symbols.clone()))
            .unwrap_or_default(),
    };
    let svg = draw::svg(puzzle, path.as_ref(), &opts);
    Ok(Rendered {
        svg,
        path,
        verdict,
        illegal,
        status,
        ms,
        why,
    })
}

/// `{"svg", "path", "moves", "valid", "invalid", "negations", "illegal",
/// "status", "ms"}` (and `"why"`, … on a panel with no solution): the
/// JSON of `witness render --json` and `/api/render`.
pub fn render_json(r: &Rendered) -> Value {
    let v = r.verdict.as_ref().map(verdict_json);
    let mut j = json!({
        "svg": r.svg,
        "path": r.path.as_ref().map(|p| p.to_site()),
        "moves": r.path.as_ref().map(|p| p.to_moves()),
        "valid": v.as_ref().map(|v| v["valid"].clone()),
        "invalid": v.as_ref().map_or(json!([]), |v| v["invalid"].clone()),
        "negations": v.as_ref().map_or(json!([]), |v| v["negations"].clone()),
        "illegal": r.illegal,
        "status": r.status,
        "ms": crate::output::round_ms(r.ms),
    });
    if let Some(w) = &r.why {
        witness::request::add_why(&mut j, w);
    }
    j
}

/// The exit code of a rendering, as `check` and `solve` would give it,
/// with a line on standard error saying why it is not 0: a path's verdict
/// (1 invalid, 2 illegal, 3 unchecked within `timeout_ms`), or with
/// `solve`, 1 no solution, 3 none found within `timeout_ms`.
fn exit_code(r: &Rendered, solve: bool, timeout_ms: u64) -> u8 {
    match (r.status, &r.why) {
        (Some("timeout"), _) if !solve => {
            eprintln!("witness: the path is drawn unchecked (no verdict within {timeout_ms} ms)");
            return EXIT_STOPPED;
        }
        (Some("timeout"), _) if r.path.is_some() => {
            eprintln!(
                "witness: the solution is drawn unchecked (no verdict within {timeout_ms} ms)"
            );
            return EXIT_STOPPED;
        }
        (Some("timeout"), _) => {
            eprintln!("witness: no solution found within {timeout_ms} ms; the panel is drawn without a line");
            return EXIT_STOPPED;
        }
        (Some("none"), Some(w)) if w.no_line => {
            eprintln!("witness: no solution: no line reaches an end at all");
            return EXIT_NO;
        }
        (Some("none"), Some(w)) => {
            let n = w.symbols.len();
            let s = if n == 1 { "" } else { "s" };
            eprintln!("witness: no solution: the {n} ringed symbol{s} cannot all be satisfied");
            return EXIT_NO;
        }
        (Some("none"), None) => {
            eprintln!("witness: no solution");
            return EXIT_NO;
        }
        _ => {}
    }
    if let Some(e) = &r.illegal {
        eprintln!("witness: the path is drawn, but it is not a legal line: {e}");
        return EXIT_BAD_INPUT;
    }
    match &r.verdict {
        Some(v) if !v.valid => {
            let n = v.invalid.len();
            let s = if n == 1 { "" } else { "s" };
            eprintln!("witness: the path is invalid: {n} failing symbol{s}, ringed");
            EXIT_NO
        }
        _ => EXIT_DONE,
    }
}

/// Reads `--scale`: a number from 0.05 to 100.
fn parse_scale(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.05..=100.0).contains(&x) => Ok(x as f32),
        _ => Err(format!("must be a number from 0.05 to 100, not {s}")),
    }
}

/// Rasterises an SVG document to PNG bytes at `scale`.
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    if !(scale.is_finite() && scale > 0.0) {
        return Err(format!("--scale must be a positive number, not {scale}"));
    }
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| format!("cannot read the SVG: {e}"))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    if w == 0 || h == 0 || w > MAX_PNG_SIDE || h > MAX_PNG_SIDE {
        return Err(format!(
            "a {w} x {h} image is outside 1..={MAX_PNG_SIDE} pixels a side; change --scale"
        ));
    }
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| format!("cannot make a {w} x {h} image"))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// Writes text to standard output ([`crate::output::write_out`]).
fn emit(text: &str) -> Result<(), String> {
    crate::output::write_out(format_args!("{text}"))
}

/// Runs the command; the exit code is [`exit_code`]'s (0 when drawn with
/// nothing to report).
pub fn run(a: Args) -> Result<u8, String> {
    let as_png = match a.output.as_deref() {
        None | Some("-") => None,
        Some(out) => {
            let lower = out.to_ascii_lowercase();
            if lower.ends_with(".png") {
                Some(true)
            } else if lower.ends_with(".svg") {
                Some(false)
            } else {
                return Err(format!("{out}: the output must end in .svg or .png"));
            }
        }
    };
    let puzzle = input::with_rules(input::read_picked(&a.puzzle, a.format, &a.pick)?, a.rules);
    let line = if a.solve {
        Line::Solve
    } else if let Some(p) = &a.path {
        Line::Path(Path::parse_on(p, &puzzle).map_err(|e| e.to_string())?)
    } else {
        Line::None
    };
    let r = render(&puzzle, line, &crate::solve::limits_of(a.timeout_ms))?;
    let code = exit_code(&r, a.solve, a.timeout_ms);
    if a.json {
        let mut j = render_json(&r);
        j["rules"] = serde_json::json!(puzzle.rules.name());
        emit(&format!("{j}\n"))?;
        return Ok(code);
    }
    match (a.output.as_deref(), as_png) {
        (Some(out), Some(png_out)) => {
            let bytes = if png_out {
                png(&r.svg, a.scale)?
            } else {
                r.svg.into_bytes()
            };
            std::fs::write(out, bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
        }
        _ => emit(&r.svg)?,
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every SVG snapshot of the library rasterises with resvg; with
    /// `RENDER_PNG_DIR` set, the images are written there to look at.
    #[test]
    fn snapshots_rasterise() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../witness/tests/snapshots");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).expect("the snapshot folder") {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "svg") {
                let svg = std::fs::read_to_string(&p).unwrap();
                let bytes = png(&svg, 1.0).unwrap();
                assert!(bytes.starts_with(b"\x89PNG"));
                if let Some(out) = std::env::var_os("RENDER_PNG_DIR") {
                    let name = p.with_extension("png");
                    let name = name.file_name().unwrap();
                    std::fs::write(std::path::Path::new(&out).join(name), bytes).unwrap();
                }
                n += 1;
            }
        }
        assert!(n >= 5, "found {n} snapshots");
    }

    #[test]
    fn bad_scales() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#;
        assert!(png(svg, 0.0).is_err());
        assert!(png(svg, f32::NAN).is_err());
        assert!(png(svg, 10_000.0).is_err());
        assert!(png("not svg", 1.0).is_err());
        assert!(png(svg, 2.0).is_ok());
        assert_eq!(parse_scale("0.5"), Ok(0.5));
        for bad in ["0", "1e-300", "0.001", "-1", "101", "NaN", "inf", "x"] {
            assert!(parse_scale(bad).is_err(), "{bad}");
        }
    }
}
