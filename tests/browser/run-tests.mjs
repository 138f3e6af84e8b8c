// Browser tests of the page, in Debian's headless Chromium driven by
// playwright-core (never a downloaded browser): against `witness serve`
// (run.sh) and against the static build in web/dist (static.sh), which
// answers in a Web Worker.
//
// The server must already run: WITNESS_URL names it.
// WITNESS_BACKEND (api or wasm), when set, is the backend the page must pick.
// CHROMIUM overrides the browser path (default /usr/bin/chromium).
// WITNESS_SCREENSHOT, when set, is where a screenshot of the page goes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const BASE = process.env.WITNESS_URL;
if (!BASE) {
  console.error('WITNESS_URL is not set: start `witness serve` and name its address');
  process.exit(2);
}
const FIXTURES = JSON.parse(readFileSync(new URL('./fixtures.json', import.meta.url), 'utf8'));
const STEP_TIMEOUT = 15000;

let browser;

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

after(async () => {
  if (browser) await browser.close();
});

async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(BASE, { waitUntil: 'load' });
  await page.waitForSelector('#panel svg');
  // WITNESS_BACKEND, when set, is where the page must send its questions.
  const backend = process.env.WITNESS_BACKEND;
  if (backend) {
    await page.waitForFunction((b) => document.documentElement.dataset.backend === b, backend);
  }
  return { page, context, errors };
}

// Pastes a fixture into the page and waits for it to be drawn.
async function loadFixture(page, id) {
  await page.fill('#source', FIXTURES[id].puzzle);
  await page.click('#load');
  await waitText(page, 'status', /Loaded/);
}

// The arrow keys that draw a path in the site's format: one press per
// segment, or up to an end in the middle of one.
function keysFor(path) {
  const names = { 1: 'ArrowLeft', 2: 'ArrowRight', 3: 'ArrowUp', 4: 'ArrowDown' };
  const delta = { 1: [-1, 0], 2: [1, 0], 3: [0, -1], 4: [0, 1] };
  const moves = path.slice(1).filter((m) => m >= 1 && m <= 4);
  let { x, y } = path[0];
  const keys = [];
  moves.forEach((m, i) => {
    x += delta[m][0];
    y += delta[m][1];
    const onNode = x % 2 === 0 && y % 2 === 0; // parity survives a pillar's wrap
    if (onNode || i === moves.length - 1) keys.push(names[m]);
  });
  return keys;
}

// How many Enter presses pick the path's start (starts in column order).
function startPresses(puzzleText, start) {
  const grid = JSON.parse(puzzleText).grid;
  const starts = [];
  grid.forEach((col, x) => col.forEach((c, y) => {
    if (c && c.start === true) starts.push([x, y]);
  }));
  const i = starts.findIndex(([x, y]) => x === start.x && y === start.y);
  assert.ok(i >= 0, 'the solution begins at a start');
  return i;
}

async function drawWithKeys(page, id) {
  const { puzzle, solution } = FIXTURES[id];
  await page.focus('#panel');
  const enters = startPresses(puzzle, solution[0]);
  for (let i = 0; i < enters; i++) await page.keyboard.press('Enter');
  for (const k of keysFor(solution)) await page.keyboard.press(k);
}

// Waits until an element's text matches; on timeout, says what the page shows.
// The puzzle as the editor exports it (Export JSON).
async function exported(page) {
  await page.click('#export');
  return JSON.parse(await page.inputValue('#exported'));
}

async function waitText(page, id, pattern) {
  try {
    await page.waitForFunction(
      ([i, src]) => new RegExp(src).test(document.getElementById(i).textContent),
      [id, pattern.source],
    );
  } catch (e) {
    const status = await page.textContent('#status');
    const shown = await page.textContent('#verdict');
    throw new Error(`#${id} never matched ${pattern}: status "${status}", verdict "${shown}"`);
  }
  return page.textContent('#' + id);
}

const verdict = (page, pattern) => waitText(page, 'verdict', pattern);

test('the page loads a corpus puzzle and the keyboard draws its solution', async () => {
  const { page, context, errors } = await openPage();
  try {
    await loadFixture(page, 'XEFTSHRG');
    await drawWithKeys(page, 'XEFTSHRG');
    const text = await verdict(page, /Solved!/);
    assert.match(text, /Solved! 0,8:R6U2L4U4L2U2R4D4R4U2L2U2R2/);
    assert.equal(await page.getAttribute('#verdict', 'class'), 'ok');
    // Escape clears the line; a wrong line is rejected with its failures ringed.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.getElementById('verdict').textContent === '');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('symmetry puzzles: the keyboard draws both lines', async () => {
  const { page, context, errors } = await openPage();
  try {
    await loadFixture(page, '39CCED53');
    await drawWithKeys(page, '39CCED53');
    await verdict(page, /Solved!/);
    // Both lines are drawn: the player's in cyan, its mirror in yellow.
    const svg = await page.innerHTML('#panel');
    assert.match(svg, /stroke="#8FF"[^>]*class="line"/);
    assert.match(svg, /stroke="#FF2"[^>]*class="line"/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a wrong line is judged and its failing symbols ringed in red', async () => {
  const { page, context } = await openPage();
  try {
    await loadFixture(page, 'C94D37CF');
    await page.focus('#panel');
    // Up one segment, across the top, and down into no end: still drawing.
    await page.keyboard.press('ArrowUp');
    await verdict(page, /Drawing/);
    // Back out and take a line to the end that leaves a triangle wrong.
    await page.keyboard.press('Backspace');
    for (const k of ['ArrowUp', 'ArrowRight', 'ArrowRight', 'ArrowUp']) await page.keyboard.press(k);
    const text = await verdict(page, /Not solved/);
    assert.match(text, /failing element/);
    assert.ok((await page.$$('#panel svg circle.error')).length >= 1);
  } finally {
    await context.close();
  }
});

test('the mouse draws a line from the start circle', async () => {
  const { page, context } = await openPage();
  try {
    await loadFixture(page, 'C94D37CF');
    const box = await page.locator('#panel svg').boundingBox();
    const vb = await page.$eval('#panel svg', (s) => s.viewBox.baseVal.width);
    const scale = box.width / vb;
    const at = (x, y) => [box.x + (52 + 41 * x) * scale, box.y + (52 + 41 * y) * scale];
    // The solution's corners: (0,4) up to (0,0), right to (2,0), down to
    // (2,2), right to (4,2), up to the end at (4,0).
    const corners = [[0, 4], [0, 2], [0, 0], [2, 0], [2, 2], [4, 2], [4, 0]];
    await page.mouse.move(...at(0, 4));
    await page.mouse.down();
    for (const [x, y] of corners.slice(1)) await page.mouse.move(...at(x, y), { steps: 6 });
    await page.mouse.up();
    await verdict(page, /Solved!/);
  } finally {
    await context.close();
  }
});

test('"New puzzle" makes a puzzle with one solution, which the page solves', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.selectOption('#gen-preset', 'squares');
    await page.selectOption('#gen-size', '3x3');
    await page.click('#generate');
    await waitText(page, 'status', /exactly one solution/);
    const squares = await page.$$eval('#panel svg rect[rx="7"]', (r) => r.length);
    assert.ok(squares >= 1, 'the squares preset draws squares');
    await page.click('#count');
    await waitText(page, 'status', /^unique: 1 solution \(/);
    await page.click('#solve');
    await waitText(page, 'status', /^Solved in/);
    await verdict(page, /Solved!/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('"Make a puzzle for this line" gives a puzzle the page solves with that line', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.click('#new');
    await waitText(page, 'status', /new empty panel/);
    // A line on the empty 4x4 panel from its start (0, 8) to its end
    // (8, 0): up 2, right 2, up 2, right 2, up 4, right 4 (codes: 3 up,
    // 2 right, one slot each).
    await page.evaluate(() => {
      const s = window.witnessPage;
      s.start = { x: 0, y: 8 };
      s.moves = [3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3, 3, 2, 2, 2, 2];
    });
    await page.selectOption('#gen-preset', 'dots');
    await page.click('#around');
    await waitText(page, 'status', /only solution is your line/);
    assert.equal(await page.isHidden('#show-line'), false);
    await page.click('#solve');
    await page.waitForFunction(() => document.body.dataset.status === 'solved');
    assert.equal(await page.evaluate(() => document.body.dataset.moves), '0,8:U2R2U2R2U4R4');
    await page.click('#show-line');
    await waitText(page, 'status', /^Your line: 0,8:U2R2U2R2U4R4$/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('hint, solution and count come from the API', async () => {
  const { page, context, errors } = await openPage();
  try {
    await loadFixture(page, 'QB7EB8KT');
    await page.click('#hint');
    await waitText(page, 'status', /^Hint: the line begins/);
    await verdict(page, /Drawing/);
    assert.ok((await page.$$('#panel svg path.line')).length === 1, 'the hint is drawn');
    await page.click('#solve');
    await waitText(page, 'status', /^Solved in/);
    await verdict(page, /Solved!/);
    await page.click('#count');
    await waitText(page, 'status', /solution/);
    assert.match(await page.textContent('#status'), /^(unique: 1 solution|\d{1,3}(,\d{3})* solutions) \(/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the editor places and removes symbols, resizes, and exports JSON and Windmill codes', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.click('#new');
    await page.waitForFunction(() => /new empty panel/.test(document.getElementById('status').textContent));
    // Where slot (x, y) is on the screen now (the page's layout moves as
    // panels of text open below it). A redraw replaces the drawing, so a
    // look that falls between the old one and the new is taken again.
    const at = async (x, y) => {
      for (let tries = 0; ; tries++) {
        try {
          await page.locator('#panel svg').scrollIntoViewIfNeeded();
          const box = await page.locator('#panel svg').boundingBox();
          const vb = await page.$eval('#panel svg', (s) => s.viewBox.baseVal.width);
          const scale = box.width / vb;
          return [box.x + (52 + 41 * x) * scale, box.y + (52 + 41 * y) * scale];
        } catch (e) {
          if (tries >= 10 || !/not attached|detached/.test(String(e))) throw e;
          await page.waitForTimeout(50);
        }
      }
    };
    const squares = () => page.$$eval('#panel svg rect[rx="7"]', (r) => r.length);
    assert.equal(await squares(), 0);
    // A white square on face (1, 1).
    await page.check('input[name=tool][value=square]');
    await page.selectOption('#color', 'white');
    await page.mouse.click(...(await at(1, 1)));
    await page.waitForFunction(() => document.querySelectorAll('#panel svg rect[rx="7"]').length === 1);
    // A star on face (3, 5) and a black dot on node (4, 4).
    await page.check('input[name=tool][value=star]');
    await page.mouse.click(...(await at(3, 5)));
    await page.check('input[name=tool][value=dot]');
    await page.mouse.click(...(await at(4, 4)));
    await page.waitForFunction(() => document.querySelectorAll('#panel svg polygon').length === 1);
    await page.click('#export');
    let exported = JSON.parse(await page.inputValue('#exported'));
    assert.deepEqual(exported.grid[1][1], { type: 'square', color: 'white' });
    assert.equal(exported.grid[3][5].type, 'star');
    assert.equal(exported.grid[4][4].dot, 1);
    // As a Windmill code, with a link to play it there.
    await page.click('#export-windmill');
    await page.waitForFunction(() => /_0$/.test(document.getElementById('exported').value));
    const code = await page.inputValue('#exported');
    assert.equal(await page.getAttribute('#windmill', 'href'), 'https://windmill.thefifthmatt.com/build/' + code);
    assert.equal(await page.isVisible('#windmill'), true);
    assert.equal(await page.isVisible('#download'), false);
    // Clicking the same symbol again takes it away.
    await page.check('input[name=tool][value=square]');
    await page.mouse.click(...(await at(1, 1)));
    await page.waitForFunction(() => document.querySelectorAll('#panel svg rect[rx="7"]').length === 0);
    // Resize to 4x3, make it a pillar with symmetry, and the export follows.
    await page.fill('#width', '4');
    await page.fill('#height', '3');
    await page.click('#resize');
    await page.check('#pillar');
    await page.selectOption('#symmetry', 'y');
    await page.click('#export');
    exported = JSON.parse(await page.inputValue('#exported'));
    assert.equal(exported.grid.length, 8);
    assert.equal(exported.grid[0].length, 7);
    assert.equal(exported.pillar, true);
    assert.deepEqual(exported.symmetry, { x: false, y: true });
    await page.waitForFunction(() => document.querySelector('#panel svg').dataset.pillar === 'true');
    // A pillar is no Windmill puzzle: the status says so, and no link.
    await page.click('#export-windmill');
    await page.waitForFunction(() => /pillar/.test(document.getElementById('status').textContent));
    assert.equal(await page.isVisible('#windmill'), false);
    assert.equal(await page.inputValue('#exported'), '');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the editor mirrors the panel and turns it a quarter, and undo turns it back', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.click('#new');
    await waitText(page, 'status', /new empty panel/);
    const turn = async (id) => {
      await page.evaluate(() => { document.getElementById('status').textContent = ''; });
      await page.click('#' + id);
      await waitText(page, 'status', /Turned/);
    };
    // The new 4x4 panel starts at the bottom left (0,8) and ends at the
    // top right (8,0), to the right. A quarter turn clockwise takes the
    // start to the top left (0,0) and the end to the bottom right, its
    // cap pointing down.
    let p = await exported(page);
    assert.equal(p.grid[0][8].start, true);
    assert.equal(p.grid[8][0].end, 'right');
    await turn('turn-tx');
    p = await exported(page);
    assert.equal(p.grid[0][0].start, true);
    assert.equal(p.grid[8][8].end, 'bottom');
    assert.ok(!p.grid[0][8].start);
    // Mirrored left to right: the start to the top right, the end to the
    // bottom left.
    await turn('turn-x');
    p = await exported(page);
    assert.equal(p.grid[8][0].start, true);
    assert.equal(p.grid[0][8].end, 'bottom');
    // Undo gives the quarter-turned panel back.
    await page.click('#undo');
    await page.waitForFunction(() => {
      document.getElementById('export').click();
      const q = JSON.parse(document.getElementById('exported').value);
      return q.grid[0][0].start === true;
    });
    // A pillar mirrors top to bottom, but has no quarter turn.
    await page.check('#pillar');
    await turn('turn-y');
    await page.click('#turn-tx');
    await waitText(page, 'status', /pillar/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the editor marks a panel as drawn either way, and a loaded maze shows it', async () => {
  const { page, context, errors } = await openPage();
  try {
    await page.click('#new');
    await waitText(page, 'status', /new empty panel/);
    assert.equal(await page.isChecked('#undirected'), false);
    assert.equal((await exported(page)).undirected, undefined);
    await page.check('#undirected');
    assert.equal((await exported(page)).undirected, true);
    await page.uncheck('#undirected');
    assert.equal((await exported(page)).undirected, undefined);
    // A puzzle that carries the key shows it checked.
    const maze = await exported(page);
    maze.undirected = true;
    await page.fill('#source', JSON.stringify(maze));
    await page.click('#load');
    await page.waitForFunction(() => document.getElementById('undirected').checked);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a malformed puzzle is reported, not drawn', async () => {
  const { page, context } = await openPage();
  try {
    await page.fill('#source', '{"grid": 7}');
    await page.click('#load');
    await page.waitForFunction(() => document.getElementById('status').className === 'error');
    assert.match(await page.textContent('#status'), /grid/);
  } finally {
    await context.close();
  }
});

test('screenshot of the page', { skip: !process.env.WITNESS_SCREENSHOT }, async () => {
  const { page, context } = await openPage();
  try {
    await loadFixture(page, 'XEFTSHRG');
    await page.click('#hint');
    await waitText(page, 'status', /^Hint: the line begins/);
    await verdict(page, /Drawing/);
    await page.screenshot({ path: process.env.WITNESS_SCREENSHOT, fullPage: true });
  } finally {
    await context.close();
  }
});

test('a panel with no solution names and rings the symbols that cannot all be satisfied', async () => {
  // The 1x1 panel from the bottom left to the top right with dots on its
  // left and bottom edges: the two lines (up then right, right then up)
  // each miss one dot, and either dot alone is covered.
  const { page, context, errors } = await openPage();
  try {
    await page.fill('#source', 'witness 1x1\n+ - E\no . |\nS o +\n');
    await page.click('#load');
    await waitText(page, 'status', /Loaded/);
    const before = await page.$$eval('#panel svg circle', (cs) => cs.length);
    await page.click('#solve');
    await waitText(page, 'status', /no solution: the 2 ringed symbols cannot all be satisfied/);
    await page.waitForFunction((n) => document.querySelectorAll('#panel svg circle').length === n + 2, before);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
