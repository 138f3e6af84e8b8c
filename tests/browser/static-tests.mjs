// Browser tests of the static page (web/dist, built by scripts/build-web)
// served by a plain static file server: the library answers in a Web
// Worker, compiled to WebAssembly. Share links with `&solve` on corpus
// puzzles of every mechanic (each answer checked by the native
// `witness check`), puzzle lists, Stop, copy link, undo and redo.
//
// WITNESS_URL names the static server; WITNESS_BIN the native binary;
// WITNESS_CORPUS the corpus folder (default ../shared/corpus beside the
// checkout; without it the corpus test says SKIPPED).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const BASE = process.env.WITNESS_URL;
const BIN = process.env.WITNESS_BIN;
if (!BASE || !BIN) {
  console.error('WITNESS_URL (the static server) and WITNESS_BIN (the native binary) must be set');
  process.exit(2);
}
const ROOT = new URL('../../', import.meta.url).pathname;
const CORPUS = process.env.WITNESS_CORPUS || join(ROOT, '../shared/corpus');
const FIXTURES = JSON.parse(readFileSync(new URL('./fixtures.json', import.meta.url), 'utf8'));
const SLOW = readFileSync(join(ROOT, 'crates/witness-cli/tests/data/slow-qyjxsun7.json'), 'utf8');
const TMP = mkdtempSync(join(tmpdir(), 'witness-static-'));
// Corpus puzzles solved per mechanic, and the largest panel taken (slots a side).
const PER_MECHANIC = Number(process.env.WITNESS_STATIC_PER_MECHANIC || 2);
const MAX_SIDE = 11;

let browser;

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

after(async () => {
  if (browser) await browser.close();
});

async function openPage(url = BASE) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#panel svg');
  return { page, context, errors };
}

const shareLink = (text, solve) => BASE + '#puzzle=' + encodeURIComponent(text) + (solve ? '&solve' : '');

async function waitStatus(page, pattern) {
  try {
    await page.waitForFunction((src) => new RegExp(src).test(document.getElementById('status').textContent),
      pattern.source);
  } catch (e) {
    throw new Error(`#status never matched ${pattern}: "${await page.textContent('#status')}"`);
  }
}

// The mechanics a witnesspuzzles JSON puzzle uses.
function mechanics(text) {
  const p = JSON.parse(text);
  const found = new Set();
  if (p.pillar) found.add('pillar');
  if (p.symmetry && (p.symmetry.x || p.symmetry.y)) found.add('symmetry');
  for (const col of p.grid) {
    for (const c of col) {
      if (!c) continue;
      if (['square', 'star', 'triangle', 'poly', 'ylop', 'nega'].includes(c.type)) found.add(c.type);
      if (c.dot > 0) found.add('dot');
      if (c.gap > 0) found.add('gap');
    }
  }
  return { found, w: p.grid.length, h: p.grid[0].length };
}

// A native check of a path: true when `witness check` says valid.
function nativeValid(puzzle, moves) {
  const file = join(TMP, 'puzzle.json');
  writeFileSync(file, puzzle);
  try {
    execFileSync(BIN, ['check', file, '--path', moves], { stdio: 'pipe' });
    return true;
  } catch (e) {
    return false;
  }
}

test('share links with &solve solve corpus puzzles of every mechanic, the moves valid natively', async (t) => {
  const file = join(CORPUS, 'witnesspuzzles-dev.jsonl');
  if (!existsSync(file)) {
    t.skip('SKIPPED: no corpus at ' + CORPUS);
    return;
  }
  const wanted = ['dot', 'gap', 'square', 'star', 'triangle', 'poly', 'ylop', 'nega', 'symmetry', 'pillar'];
  const picked = new Map(wanted.map((m) => [m, []]));
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const { id, puzzle } = JSON.parse(line);
    const { found, w, h } = mechanics(puzzle);
    if (w > MAX_SIDE || h > MAX_SIDE) continue;
    for (const m of wanted) {
      if (found.has(m) && picked.get(m).length < PER_MECHANIC) {
        picked.get(m).push({ id, puzzle });
        break;
      }
    }
  }
  const { page, context, errors } = await openPage();
  try {
    for (const [m, list] of picked) {
      assert.ok(list.length > 0, 'a small corpus puzzle with ' + m);
      for (const { id, puzzle } of list) {
        await page.goto('about:blank');
        await page.goto(shareLink(puzzle, true));
        await page.waitForFunction(() => document.body.dataset.status !== undefined, null, { timeout: 60000 });
        const status = await page.evaluate(() => document.body.dataset.status);
        assert.equal(status, 'solved', `${m} ${id}: ${await page.textContent('#status')}`);
        const moves = await page.evaluate(() => document.body.dataset.moves);
        assert.ok(nativeValid(puzzle, moves), `${m} ${id}: ${moves} is not valid natively`);
        assert.match(await page.textContent('#verdict'), /Solved!/);
      }
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

const LIST_IDS = Object.keys(FIXTURES).filter((k) => !k.startsWith('_'));
const LIST = LIST_IDS.map((id) => JSON.stringify({ id, puzzle: FIXTURES[id].puzzle })).join('\n') + '\n';

async function stepsThrough(page) {
  const pos = () => page.textContent('#list-pos');
  await page.waitForFunction((n) => document.getElementById('list-pos').textContent === '1 / ' + n + ': ' +
    document.body.dataset.puzzleId, LIST_IDS.length);
  assert.equal(await pos(), `1 / ${LIST_IDS.length}: ${LIST_IDS[0]}`);
  const first = await page.innerHTML('#panel');
  // The arrow keys outside the panel step; the panel shows each puzzle.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((id) => document.body.dataset.puzzleId === id, LIST_IDS[1]);
  assert.ok((await page.innerHTML('#panel')) !== first, 'another puzzle is shown');
  await page.click('#next');
  await page.waitForFunction((id) => document.body.dataset.puzzleId === id, LIST_IDS[2]);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((id) => document.body.dataset.puzzleId === id, LIST_IDS[0]);
  assert.equal(await pos(), `1 / ${LIST_IDS.length}: ${LIST_IDS[0]}`);
  await page.click('#prev');
  assert.equal(await pos(), `1 / ${LIST_IDS.length}: ${LIST_IDS[0]}`);
  // A puzzle of the list solves like any other.
  await page.click('#solve');
  await page.waitForFunction(() => document.body.dataset.status === 'solved');
}

test('a file of puzzles, one a line, is stepped through with the arrow keys and buttons', async () => {
  const { page, context, errors } = await openPage();
  try {
    const file = join(TMP, 'list.jsonl');
    writeFileSync(file, LIST);
    await page.setInputFiles('#file', file);
    await stepsThrough(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('puzzles pasted from the clipboard', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.evaluate((text) => navigator.clipboard.writeText(text), LIST);
    await page.click('#paste');
    await stepsThrough(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('Stop cancels a long count, and the page solves again afterwards', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.fill('#source', SLOW);
    await page.click('#load');
    await waitStatus(page, /Loaded/);
    await page.click('#count');
    // The time the count has run shows while it runs.
    await waitStatus(page, /Counting… \d+ s \(Stop cancels\)/);
    assert.equal(await page.isDisabled('#stop'), false);
    await page.click('#stop');
    await waitStatus(page, /^Stopped\.$/);
    await page.waitForFunction(() => !document.getElementById('count').disabled);
    assert.equal(await page.evaluate(() => document.body.dataset.count), undefined);
    await page.fill('#source', FIXTURES.QB7EB8KT.puzzle);
    await page.click('#load');
    await waitStatus(page, /Loaded/);
    await page.click('#solve');
    await page.waitForFunction(() => document.body.dataset.status === 'solved');
    await page.click('#count');
    await page.waitForFunction(() => document.body.dataset.count !== undefined);
    assert.match(await page.textContent('#status'), /^(unique: 1 solution|\d{1,3}(,\d{3})* solutions) \(/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a copied link reopens the puzzle, and solves it with &solve', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.fill('#source', FIXTURES['39CCED53'].puzzle);
    await page.click('#load');
    await waitStatus(page, /Loaded/);
    const panel = await page.innerHTML('#panel');
    await page.click('#copy-link');
    await waitStatus(page, /Link/);
    const link = await page.getAttribute('#link', 'href');
    assert.ok(link.startsWith(BASE + '#puzzle='), link);
    // The compact form is shorter than the JSON given.
    assert.ok(link.length < encodeURIComponent(FIXTURES['39CCED53'].puzzle).length, link);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, link);
    const other = await openPage(link);
    try {
      await waitStatus(other.page, /Loaded/);
      assert.ok((await other.page.innerHTML('#panel')) === panel, 'the same panel is shown');
      await other.page.evaluate(() => {
        location.hash += '&solve';
      });
      await other.page.waitForFunction(() => document.body.dataset.status === 'solved');
      const moves = await other.page.evaluate(() => document.body.dataset.moves);
      assert.ok(nativeValid(FIXTURES['39CCED53'].puzzle, moves), moves);
      assert.deepEqual(other.errors, []);
    } finally {
      await other.context.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a malformed share link reports an error', async () => {
  const { page, context } = await openPage(shareLink('{"grid": 7}', true));
  try {
    await page.waitForFunction(() => document.body.dataset.status === 'error');
    assert.match(await page.textContent('#status'), /grid/);
  } finally {
    await context.close();
  }
});

test('undo and redo of edits', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.click('#new');
    await waitStatus(page, /new empty panel/);
    const box = await page.locator('#panel svg').boundingBox();
    const vb = await page.$eval('#panel svg', (s) => s.viewBox.baseVal.width);
    const scale = box.width / vb;
    const squares = (n) => page.waitForFunction((k) =>
      document.querySelectorAll('#panel svg rect[rx="7"]').length === k, n);
    await page.check('input[name=tool][value=square]');
    await page.mouse.click(box.x + (52 + 41) * scale, box.y + (52 + 41) * scale);
    await squares(1);
    await page.click('#undo');
    await squares(0);
    await page.click('#redo');
    await squares(1);
    await page.keyboard.press('Control+z');
    await squares(0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a panel with no solution names and rings the symbols that cannot all be satisfied', async () => {
  // The 1x1 panel from the bottom left to the top right with dots on its
  // left and bottom edges: the two lines (up then right, right then up)
  // each miss one dot, and either dot alone is covered.
  const { page, context, errors } = await openPage(shareLink('witness 1x1\n+ - E\no . |\nS o +\n', false));
  try {
    const rings = () => page.$$eval('#panel svg circle', (cs) => cs.length);
    const before = await rings();
    await page.click('#solve');
    await waitStatus(page, /no solution: the 2 ringed symbols cannot all be satisfied/);
    await page.waitForFunction((n) => document.querySelectorAll('#panel svg circle').length === n + 2, before);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
