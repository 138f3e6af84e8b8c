//! The spread of the generator's difficulty measure over a file of
//! puzzles: `difficulty FILE [MAX_NODES]` reads `{"puzzle": …}` lines (a
//! corpus file or `witness generate`'s output) and prints the measure's
//! percentiles and a histogram by whole points. A puzzle whose search
//! passes the node budget (default 10 million) is counted apart.

use witness::generate::difficulty;
use witness::Limits;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: difficulty FILE [MAX_NODES]");
    let budget: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let mut values = Vec::new();
    let mut over = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let p = match &v["puzzle"] {
            serde_json::Value::String(s) => witness::read_puzzle(s, None),
            o => witness::formats::wpjson::from_value(o),
        };
        let Ok(p) = p else { continue };
        match difficulty(&p, &Limits::none().with_max_nodes(budget)) {
            Ok(d) => values.push(d),
            Err(_) => over += 1,
        }
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        println!("no puzzle measured ({over} over the budget)");
        return;
    }
    let at = |q: f64| values[((n - 1) as f64 * q).round() as usize];
    println!(
        "puzzles: {n} (over the budget: {over})  min {:.2}  p10 {:.2}  p50 {:.2}  p90 {:.2}  max {:.2}",
        values[0],
        at(0.1),
        at(0.5),
        at(0.9),
        values[n - 1]
    );
    let top = values[n - 1].floor() as usize;
    let mut hist = vec![0usize; top + 1];
    for &d in &values {
        hist[d.floor() as usize] += 1;
    }
    let line: Vec<String> = hist
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(i, c)| format!("{i}:{c}"))
        .collect();
    println!("by whole points: {}", line.join(" "));
}
