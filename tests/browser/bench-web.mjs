// Solve times of the WebAssembly build in headless Chromium, one puzzle
// after another on one thread (as `witness bench --jobs 1` does natively):
// reads a file of puzzles, one `{"id","puzzle"}` a line, loads
// witness.wasm from the static server WITNESS_URL in a page, solves each
// puzzle twice over the list (the browser compiles the module first with
// a quick compiler and swaps in optimised code while it runs, so the first
// pass is slower), checks each answer with the module's own validator,
// and prints one `{"id","status","ms","ms_first","moves"}` line per puzzle
// (`ms` from the second pass).

import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [file] = process.argv.slice(2);
const BASE = process.env.WITNESS_URL;
if (!file || !BASE) {
  console.error('usage: WITNESS_URL=<static server> node bench-web.mjs PUZZLES.jsonl');
  process.exit(2);
}
const puzzles = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.goto(BASE + '?backend=wasm', { waitUntil: 'load' });
  const out = await page.evaluate(async (list) => {
    const bytes = await (await fetch('witness.wasm')).arrayBuffer();
    const ex = (await WebAssembly.instantiate(bytes, {})).instance.exports;
    const ask = (request) => {
      const b = new TextEncoder().encode(JSON.stringify(request));
      const p = ex.witness_alloc(b.length);
      new Uint8Array(ex.memory.buffer, p, b.length).set(b);
      const n = ex.witness_call(p, b.length);
      return JSON.parse(new TextDecoder().decode(new Uint8Array(ex.memory.buffer, ex.witness_reply(), n)));
    };
    const first = new Map();
    for (const { id, puzzle } of list) {
      const t0 = performance.now();
      ask({ op: 'solve', puzzle });
      first.set(id, Math.round((performance.now() - t0) * 1000) / 1000);
    }
    const rows = [];
    for (const { id, puzzle } of list) {
      const t0 = performance.now();
      const r = ask({ op: 'solve', puzzle });
      const ms = performance.now() - t0;
      let status = r.status === 200 ? r.body.status : 'error';
      const moves = r.status === 200 ? r.body.moves : null;
      if (moves) {
        const c = ask({ op: 'check', puzzle, path: moves });
        if (!(c.status === 200 && c.body.valid)) status = 'invalid';
      }
      rows.push({ id, status, ms: Math.round(ms * 1000) / 1000, ms_first: first.get(id), moves });
    }
    return rows;
  }, puzzles);
  for (const row of out) console.log(JSON.stringify(row));
} finally {
  await browser.close();
}
