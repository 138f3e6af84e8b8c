//! witnesspuzzles.com puzzle JSON, read in every form the site has stored
//! (`docs/rules.md#the-puzzle-json`, legacy variants included) and written in
//! the modern form.

use serde_json::{json, Map, Value};

use crate::error::{how_many, Error, Result};
use crate::model::{
    Cell, Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, RuleSet, Settings, SlotKind, Symbol,
    SymbolKind, Symmetry, MAX_SLOTS, ROTATION_BIT,
};

/// Reads a puzzle from the site's JSON text: a puzzle object, or a JSON
/// Lines entry `{"id": …, "puzzle": …}` holding one (see [`from_value`]).
/// A text of several JSON values (a JSON Lines file of several puzzles) is
/// refused, saying so.
pub fn parse(text: &str) -> Result<Puzzle> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = match values.next() {
        Some(v) => v.map_err(json_error)?,
        // Blank text: serde's own words for it.
        None => {
            return Err(match serde_json::from_str::<Value>(text) {
                Err(e) => json_error(e),
                Ok(_) => Error::Parse("no JSON value".into()),
            })
        }
    };
    let first_end = values.byte_offset();
    match values.next() {
        None => from_value(&value),
        Some(Err(e)) => Err(json_error(e)),
        Some(Ok(_)) => {
            let rest = &text[first_end..];
            let second = first_end + rest.len() - rest.trim_start().len();
            Err(Error::Parse(format!(
                "more than one JSON value (a second one on line {}): a JSON Lines file holds \
                 one puzzle a line; read one line",
                text[..second].matches('\n').count() + 1
            )))
        }
    }
}

/// A JSON syntax error, with its line and column.
fn json_error(e: serde_json::Error) -> Error {
    Error::Parse(format!(
        "not valid JSON at line {}, column {}: {e}",
        e.line(),
        e.column()
    ))
}

/// JavaScript truthiness, as the engine tests flags.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// A value as JavaScript's `> 0` comparison sees it (non-numbers are 0).
fn js_number(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::Bool(true)) => 1.0,
        Some(Value::String(s)) => s.trim().parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

/// Reads a puzzle from an already parsed JSON value: a puzzle object (with
/// a `"grid"`), or an entry of a JSON Lines file of puzzles such as the
/// corpus, `{"id": …, "puzzle": …}` with no `"grid"`, whose `"puzzle"` is a
/// puzzle object or a JSON string of one.
pub fn from_value(value: &Value) -> Result<Puzzle> {
    match value.as_object() {
        Some(obj) if !obj.contains_key("grid") && obj.contains_key("puzzle") => {
            let id = match obj.get("id") {
                Some(Value::String(s)) => format!(" \"{s}\""),
                Some(v @ Value::Number(_)) => format!(" {v}"),
                _ => String::new(),
            };
            let within = |e: Error| match e {
                Error::Parse(m) => Error::Parse(format!("entry{id}, its \"puzzle\": {m}")),
                Error::Size(m) => Error::Size(format!("entry{id}, its \"puzzle\": {m}")),
                Error::Invalid(m) => Error::Invalid(format!("entry{id}, its \"puzzle\": {m}")),
                Error::Unsupported(m) => {
                    Error::Unsupported(format!("entry{id}, its \"puzzle\": {m}"))
                }
                e => e,
            };
            match &obj["puzzle"] {
                Value::String(s) => {
                    let inner = serde_json::from_str(s).map_err(|e| within(json_error(e)))?;
                    from_puzzle_object(&inner).map_err(within)
                }
                inner @ Value::Object(_) => from_puzzle_object(inner).map_err(within),
                _ => Err(within(Error::Parse(
                    "must be a puzzle object or a JSON string of one".into(),
                ))),
            }
        }
        _ => from_puzzle_object(value),
    }
}

/// Reads a puzzle from a JSON value that must be a puzzle object.
fn from_puzzle_object(value: &Value) -> Result<Puzzle> {
    let obj = value
        .as_object()
        .ok_or_else(|| Error::Parse("a puzzle must be a JSON object with a \"grid\"".into()))?;
    let grid = obj
        .get("grid")
        .ok_or_else(|| Error::Parse("the puzzle has no \"grid\"".into()))?
        .as_array()
        .ok_or_else(|| Error::Parse("\"grid\" must be an array of columns".into()))?;
    let w = grid.len();
    if w == 0 {
        return Err(Error::Size("\"grid\" has no columns".into()));
    }
    let columns: Vec<&Vec<Value>> = grid
        .iter()
        .enumerate()
        .map(|(x, c)| {
            c.as_array()
                .ok_or_else(|| Error::Parse(format!("grid column {x} is not an array")))
        })
        .collect::<Result<_>>()?;
    let h = columns[0].len();
    if w > MAX_SLOTS || h > MAX_SLOTS {
        return Err(Error::Size(format!(
            "the grid is {w} x {h} slots; at most {MAX_SLOTS} x {MAX_SLOTS} is supported"
        )));
    }
    if let Some((x, c)) = columns.iter().enumerate().find(|(_, c)| c.len() != h) {
        return Err(Error::Parse(format!(
            "grid column {x} has {} but column 0 has {h}: columns must have equal lengths",
            how_many(c.len(), "slot")
        )));
    }
    let pillar = obj.get("pillar").is_some_and(truthy);
    let mut puzzle = Puzzle::with_slots(w, h, pillar)?;
    if let Some(Value::String(name)) = obj.get("name") {
        puzzle.name = Some(name.clone());
    }
    for (x, column) in columns.iter().enumerate() {
        for (y, v) in column.iter().enumerate() {
            let p = Pos::new(x, y);
            *puzzle.cell_mut(p) = read_slot(p, v)?;
        }
    }
    apply_legacy_arrays(&mut puzzle, obj)?;
    puzzle.settings = read_settings(obj.get("settings"))?;
    // The project's own key (the site ignores it): the rules profile of a
    // puzzle converted from a Windmill code.
    puzzle.rules = match obj.get("rules") {
        None | Some(Value::Null) => RuleSet::default(),
        Some(Value::String(r)) => r.parse().map_err(|_| {
            Error::Parse(format!(
                "unknown \"rules\" \"{r}\": witnesspuzzles or windmill"
            ))
        })?,
        Some(other) => {
            return Err(Error::Parse(format!(
                "\"rules\" must be a string, not {other}"
            )))
        }
    };
    // The project's own key (the site ignores it): a maze whose paths have
    // no direction, as an Alcazar maze converted to JSON.
    puzzle.undirected = match obj.get("undirected") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(Error::Parse(format!(
                "\"undirected\" must be true or false, not {other}"
            )))
        }
    };
    puzzle.symmetry = match obj.get("symmetry") {
        None | Some(Value::Null) => None,
        Some(Value::Object(s)) => Some(Symmetry {
            x: s.get("x").is_some_and(truthy),
            y: s.get("y").is_some_and(truthy),
        }),
        Some(other) => {
            return Err(Error::Parse(format!(
                "\"symmetry\" must be null or {{\"x\": bool, \"y\": bool}}, not {other}"
            )))
        }
    };
    puzzle.check_symmetry()?;
    Ok(puzzle)
}

fn read_settings(v: Option<&Value>) -> Result<Settings> {
    let mut s = Settings::default();
    let Some(v) = v else { return Ok(s) };
    let Some(o) = v.as_object() else {
        if v.is_null() {
            return Ok(s);
        }
        return Err(Error::Parse(format!(
            "\"settings\" must be an object, not {v}"
        )));
    };
    let flags: [(&str, &mut bool); 6] = [
        (
            "NEGATIONS_CANCEL_NEGATIONS",
            &mut s.negations_cancel_negations,
        ),
        ("SHAPELESS_ZERO_POLY", &mut s.shapeless_zero_poly),
        ("PRECISE_POLYOMINOS", &mut s.precise_polyominos),
        ("FLASH_FOR_ERRORS", &mut s.flash_for_errors),
        ("FAT_STARTPOINTS", &mut s.fat_startpoints),
        ("CUSTOM_MECHANICS", &mut s.custom_mechanics),
    ];
    for (key, flag) in flags {
        if let Some(v) = o.get(key) {
            *flag = truthy(v);
        }
    }
    Ok(s)
}

fn direction_name(s: &str) -> Option<Direction> {
    Some(match s {
        "left" => Direction::Left,
        "right" => Direction::Right,
        "top" => Direction::Up,
        "bottom" => Direction::Down,
        _ => return None,
    })
}

/// The name the site uses for an end direction.
pub fn end_name(d: Direction) -> &'static str {
    match d {
        Direction::Left => "left",
        Direction::Right => "right",
        Direction::Up => "top",
        Direction::Down => "bottom",
    }
}

fn read_slot(p: Pos, v: &Value) -> Result<Cell> {
    let mut cell = Cell::default();
    // Non-objects and objects without a type are empty slots
    // (`docs/rules.md#the-puzzle-json`).
    let Some(o) = v.as_object() else {
        return Ok(cell);
    };
    let Some(ty) = o.get("type").filter(|t| !t.is_null()) else {
        return Ok(cell);
    };
    let ty = ty
        .as_str()
        .ok_or_else(|| Error::Parse(format!("slot {p}: \"type\" must be a string, not {ty}")))?;
    let face = p.kind() == SlotKind::Face;
    match ty {
        "line" if face => {} // A line object on a face: an empty face.
        "nonce" if face => {}
        "line" => {
            let dot = js_number(o.get("dot"));
            cell.dot = if dot > 0.0 {
                match dot as i64 {
                    2 => Dot::Blue,
                    3 => Dot::Yellow,
                    4 => Dot::Invisible,
                    _ => Dot::Black,
                }
            } else {
                Dot::None
            };
            let gap = js_number(o.get("gap"));
            cell.gap = if gap == 2.0 {
                Gap::Full
            } else if gap > 0.0 {
                Gap::Break
            } else {
                Gap::None
            };
            cell.start = o.get("start") == Some(&Value::Bool(true));
            if let Some(e) = o.get("end").filter(|e| !e.is_null()) {
                // Any non-null value is an endpoint; the direction only draws the cap.
                cell.end = Some(e.as_str().and_then(direction_name).unwrap_or(Direction::Up));
            }
        }
        "square" | "star" | "nega" | "triangle" | "poly" | "ylop" if face => {
            cell.symbol = read_symbol(p, ty, o)?;
        }
        "bridge" | "arrow" | "sizer" => {
            return Err(Error::Unsupported(format!(
                "slot {p}: the custom mechanic \"{ty}\" is not supported"
            )))
        }
        "square" | "star" | "nega" | "triangle" | "poly" | "ylop" | "nonce" => {
            return Err(Error::Unsupported(format!(
                "slot {p}: a {ty} on a node or edge is not supported (symbols go on faces)"
            )))
        }
        other => {
            return Err(Error::Unsupported(format!(
                "slot {p}: unknown element type \"{other}\""
            )))
        }
    }
    Ok(cell)
}

/// The symbol of a face, or `None` for an invisible piece: a `poly` or
/// `ylop` of `polyshape` 0 with no colour, which the engine skips entirely
/// (no area, no colour to count, never invalid: `docs/rules.md#polyominoes`).
fn read_symbol(p: Pos, ty: &str, o: &Map<String, Value>) -> Result<Option<Symbol>> {
    let color = match o.get("color") {
        Some(Value::String(c)) => Color::from_name(c),
        None | Some(Value::Null)
            if matches!(ty, "poly" | "ylop")
                && o.get("polyshape").and_then(Value::as_i64) == Some(0) =>
        {
            return Ok(None)
        }
        None | Some(Value::Null) => {
            return Err(Error::Parse(format!("slot {p}: the {ty} has no \"color\"")))
        }
        Some(other) => {
            return Err(Error::Parse(format!(
                "slot {p}: \"color\" must be a string, not {other}"
            )))
        }
    };
    let kind = match ty {
        "square" => SymbolKind::Square,
        "star" => SymbolKind::Star,
        "nega" => SymbolKind::Nega,
        "triangle" => {
            let count = o.get("count").and_then(Value::as_u64).ok_or_else(|| {
                Error::Parse(format!(
                    "slot {p}: a triangle needs a whole \"count\", not {}",
                    o.get("count").unwrap_or(&Value::Null)
                ))
            })?;
            SymbolKind::Triangle(count.min(u32::MAX as u64) as u32)
        }
        _ => {
            let shape = o
                .get("polyshape")
                .ok_or_else(|| Error::Parse(format!("slot {p}: the {ty} has no \"polyshape\"")))?;
            let out_of_range = || {
                Error::Parse(format!(
                    "slot {p}: \"polyshape\" {shape} is out of range: it must be from 0 to {}",
                    u32::MAX
                ))
            };
            let mut mask = match (shape.as_i64(), shape.as_u64()) {
                (Some(m), _) if (0..=u32::MAX as i64).contains(&m) => m as u32,
                (Some(_), _) | (None, Some(_)) => return Err(out_of_range()),
                (None, None) => {
                    return Err(Error::Parse(format!(
                        "slot {p}: \"polyshape\" must be a whole number, not {shape}"
                    )))
                }
            };
            if o.get("rot").and_then(Value::as_str) == Some("all") {
                mask |= ROTATION_BIT;
            }
            let shape = Polyomino::from_mask(mask);
            if ty == "poly" {
                SymbolKind::Poly(shape)
            } else {
                SymbolKind::Ylop(shape)
            }
        }
    };
    Ok(Some(Symbol { kind, color }))
}

fn point_of(v: &Value, what: &str) -> Result<Pos> {
    let coord = |k: &str| {
        v.get(k)
            .and_then(Value::as_u64)
            .map(|n| n as usize)
            .ok_or_else(|| Error::Parse(format!("{what}: \"{k}\" must be a whole number in {v}")))
    };
    Ok(Pos::new(coord("x")?, coord("y")?))
}

fn legacy_cell<'a>(puzzle: &'a mut Puzzle, p: Pos, what: &str) -> Result<&'a mut Cell> {
    if !puzzle.contains(p) || p.kind() == SlotKind::Face {
        return Err(Error::Invalid(format!(
            "{what} at {p} is not a node or edge of the grid"
        )));
    }
    Ok(puzzle.cell_mut(p))
}

/// The top-level `start`, `startPoints`, `end`, `endPoints`, `dots` and
/// `gaps` of the oldest puzzles (`docs/rules.md#the-puzzle-json`).
fn apply_legacy_arrays(puzzle: &mut Puzzle, obj: &Map<String, Value>) -> Result<()> {
    let list = |key: &str, single: Option<&str>| -> Vec<Value> {
        let mut out = Vec::new();
        if let Some(k) = single {
            if let Some(v @ Value::Object(_)) = obj.get(k) {
                out.push(v.clone());
            }
        }
        if let Some(Value::Array(a)) = obj.get(key) {
            out.extend(a.iter().cloned());
        }
        out
    };
    for v in list("startPoints", Some("start")) {
        let p = point_of(&v, "a start point")?;
        legacy_cell(puzzle, p, "a start point")?.start = true;
    }
    for v in list("endPoints", Some("end")) {
        let p = point_of(&v, "an endpoint")?;
        let dir = v
            .get("dir")
            .and_then(Value::as_str)
            .and_then(direction_name)
            .unwrap_or(Direction::Up);
        legacy_cell(puzzle, p, "an endpoint")?.end = Some(dir);
    }
    for v in list("dots", None) {
        let p = point_of(&v, "a dot")?;
        legacy_cell(puzzle, p, "a dot")?.dot = Dot::Black;
    }
    for v in list("gaps", None) {
        let p = point_of(&v, "a gap")?;
        legacy_cell(puzzle, p, "a gap")?.gap = Gap::Break;
    }
    Ok(())
}

/// Writes a puzzle as the site's JSON value. Shapes larger than the site's
/// 4x4 box cannot be written and give an error.
pub fn to_value(puzzle: &Puzzle) -> Result<Value> {
    let mut grid = Vec::with_capacity(puzzle.width());
    for x in 0..puzzle.width() {
        let mut column = Vec::with_capacity(puzzle.height());
        for y in 0..puzzle.height() {
            let p = Pos::new(x, y);
            column.push(write_slot(p, puzzle.cell(p))?);
        }
        grid.push(Value::Array(column));
    }
    let s = &puzzle.settings;
    let mut out = Map::new();
    out.insert(
        "name".into(),
        json!(puzzle
            .name
            .clone()
            .unwrap_or_else(|| "Unnamed Puzzle".into())),
    );
    out.insert("width".into(), json!(puzzle.width()));
    out.insert("height".into(), json!(puzzle.height()));
    out.insert("pillar".into(), json!(puzzle.pillar()));
    if let Some(sym) = puzzle.symmetry {
        out.insert("symmetry".into(), json!({"x": sym.x, "y": sym.y}));
    }
    out.insert(
        "settings".into(),
        json!({
            "NEGATIONS_CANCEL_NEGATIONS": s.negations_cancel_negations,
            "SHAPELESS_ZERO_POLY": s.shapeless_zero_poly,
            "PRECISE_POLYOMINOS": s.precise_polyominos,
            "FLASH_FOR_ERRORS": s.flash_for_errors,
            "FAT_STARTPOINTS": s.fat_startpoints,
            "CUSTOM_MECHANICS": s.custom_mechanics,
        }),
    );
    if puzzle.rules != RuleSet::default() {
        out.insert("rules".into(), json!(puzzle.rules.name()));
    }
    if puzzle.undirected {
        out.insert("undirected".into(), json!(true));
    }
    out.insert("grid".into(), Value::Array(grid));
    Ok(Value::Object(out))
}

/// Writes a puzzle as the site's JSON text.
pub fn to_string(puzzle: &Puzzle) -> Result<String> {
    Ok(to_value(puzzle)?.to_string())
}

fn write_slot(p: Pos, cell: &Cell) -> Result<Value> {
    if p.kind() == SlotKind::Face {
        let Some(sym) = &cell.symbol else {
            return Ok(Value::Null);
        };
        let (ty, extra) = match &sym.kind {
            SymbolKind::Square => ("square", None),
            SymbolKind::Star => ("star", None),
            SymbolKind::Nega => ("nega", None),
            SymbolKind::Triangle(n) => ("triangle", Some(("count", json!(n)))),
            SymbolKind::Poly(s) | SymbolKind::Ylop(s) => {
                let mask = s.to_mask().ok_or_else(|| {
                    Error::Unsupported(format!(
                        "slot {p}: a polyomino larger than 4x4 cannot be written as witnesspuzzles JSON"
                    ))
                })?;
                let ty = if matches!(sym.kind, SymbolKind::Poly(_)) {
                    "poly"
                } else {
                    "ylop"
                };
                (ty, Some(("polyshape", json!(mask))))
            }
        };
        let mut o = Map::new();
        o.insert("type".into(), json!(ty));
        o.insert("color".into(), json!(sym.color.name()));
        if let Some((k, v)) = extra {
            o.insert(k.into(), v);
        }
        return Ok(Value::Object(o));
    }
    let mut o = Map::new();
    o.insert("type".into(), json!("line"));
    o.insert("line".into(), json!(0));
    if cell.start {
        o.insert("start".into(), json!(true));
    }
    if let Some(d) = cell.end {
        o.insert("end".into(), json!(end_name(d)));
    }
    let dot = match cell.dot {
        Dot::None => 0,
        Dot::Black => 1,
        Dot::Blue => 2,
        Dot::Yellow => 3,
        Dot::Invisible => 4,
    };
    if dot > 0 {
        o.insert("dot".into(), json!(dot));
    }
    let gap = match cell.gap {
        Gap::None => 0,
        Gap::Break => 1,
        Gap::Full => 2,
    };
    if gap > 0 {
        o.insert("gap".into(), json!(gap));
    }
    Ok(Value::Object(o))
}
