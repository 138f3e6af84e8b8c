//! Lists the solutions the fast search and the brute force disagree on:
//! `diffsol FILE`.

use witness::internals::{brute, for_each_solution};
use witness::Limits;

fn main() {
    let file = std::env::args().nth(1).expect("usage: diffsol FILE");
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let mut fast = Vec::new();
    for_each_solution(&p, &Limits::none(), |path| {
        fast.push(path.to_string());
        true
    })
    .expect("fast");
    let mut slow = Vec::new();
    brute::enumerate(&p, &Limits::none(), |path| {
        slow.push(path.to_string());
        true
    })
    .expect("brute");
    for s in &slow {
        if !fast.contains(s) {
            println!("missed: {s}");
        }
    }
    for s in &fast {
        if !slow.contains(s) {
            println!("extra: {s}");
        }
    }
}
