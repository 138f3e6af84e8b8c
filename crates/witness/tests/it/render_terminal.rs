//! The terminal renderer: every corpus puzzle draws without panicking, with
//! and without its solutions, and a small panel draws exactly as expected.

use crate::common;

use std::collections::HashMap;

use witness::formats;
use witness::render;
use witness::Path;

#[test]
fn corpus_draws() {
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    let mut paths: HashMap<String, Path> = HashMap::new();
    if let Some(vs) = common::corpus_lines("witnesspuzzles-dev-verdicts.jsonl") {
        for l in vs {
            let v: serde_json::Value = serde_json::from_str(&l).unwrap();
            if v["valid"] == true {
                let id = v["id"].as_str().unwrap().to_string();
                paths
                    .entry(id)
                    .or_insert_with(|| Path::from_site(&v["path"]).unwrap());
            }
        }
    }
    let show: Vec<String> = std::env::var("RENDER_PRINT")
        .unwrap_or_default()
        .split(',')
        .map(String::from)
        .collect();
    for line in lines {
        let (id, text) = common::puzzle_of_line(&line);
        let puzzle = formats::read_puzzle(&text, None).unwrap();
        let path = paths.get(&id);
        let plain = render::terminal(&puzzle, path, false);
        let colored = render::terminal(&puzzle, path, true);
        assert!(!plain.contains('\x1b'), "{id}");
        assert_eq!(plain.lines().count(), colored.lines().count(), "{id}");
        if show.contains(&id) {
            println!("{id} {}", path.map(|p| p.to_moves()).unwrap_or_default());
            println!("{plain}");
            println!("{colored}");
        }
    }
}

/// Puzzles of the other formats (absent points, odd shapes) draw too.
#[test]
fn other_formats_draw() {
    let mut drawn = 0;
    for file in ["windmill-dev.windmill.txt", "witness-game.windmill.txt"] {
        let Some(lines) = common::corpus_lines(file) else {
            continue;
        };
        for line in lines {
            let Ok(puzzle) = formats::read_puzzle(&line, None) else {
                continue;
            };
            let t = render::terminal(&puzzle, None, true);
            let s = render::svg(&puzzle, None, &render::SvgOptions::default());
            assert!(!t.is_empty() && s.ends_with("</svg>\n"));
            drawn += 1;
        }
    }
    eprintln!("drew {drawn} puzzles of other formats");
}

/// A small panel, exactly: grid, glyphs, start, end cap and the line.
#[test]
fn small_panel_exactly() {
    let text = r#"{"grid":[
        [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
        [{"type":"line","dot":1},{"type":"star","color":"black"},{"type":"line"}],
        [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;
    let puzzle = formats::read_puzzle(text, None).unwrap();
    let path = Path::parse("0,2:U2R2").unwrap();
    let expected = concat!("  ┏━━•━━┑→\n", "  ┃  ★ k│\n", "  ●─────┘\n");
    let got = render::terminal(&puzzle, Some(&path), false);
    assert_eq!(got, expected, "\n{got}");
}
