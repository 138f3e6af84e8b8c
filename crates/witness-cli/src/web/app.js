// The page: shows a puzzle drawn by the library, lets a person draw a line
// (mouse or arrow keys), edit the puzzle, and ask for verdicts, hints,
// solutions and counts. The questions go through backend.js: to
// `witness serve`'s API, or to the library compiled to WebAssembly in a
// Web Worker on a static host.
//
// The puzzle lives here as witnesspuzzles JSON (column-major `grid`); every
// change is sent to `render`, which answers with the SVG and, for a line
// that reaches an end, its verdict. player.js adds share links, puzzle
// lists, undo and the Stop button through `window.witnessApp`.
'use strict';

(function () {
  const UNIT = 41; // Slot spacing in the server's SVG.
  const OFFSET = 52; // Centre of slot (0, 0).
  const DIRS = { 1: [-1, 0], 2: [1, 0], 3: [0, -1], 4: [0, 1] }; // left, right, up, down
  const OPPOSITE = { 1: 2, 2: 1, 3: 4, 4: 3 };
  const KEYS = { ArrowLeft: 1, ArrowRight: 2, ArrowUp: 3, ArrowDown: 4 };

  const $ = (id) => document.getElementById(id);
  const state = {
    puzzle: null, // witnesspuzzles JSON object
    start: null, // {x, y} of the line's start, or null
    moves: [], // codes 1..4
    startIndex: 0, // which start the keyboard uses
    tracing: false, // the mouse is drawing
    seq: 0, // render requests sent; older answers are dropped
    polyMask: 71, // the editor's current shape (the site's default L)
  };
  window.witnessPage = state; // for tests and the curious

  // ---------------------------------------------------------------- API

  // Answers {ok, status, data}: the data of `witness serve`'s /api/<name>.
  function api(name, body) {
    return window.WitnessBackend.call(name, body);
  }

  // Reports an answer on <body> for tests and tools: data-status (solved,
  // none, timeout or error) and data-moves; no arguments clears them.
  function answered(status, moves) {
    const d = document.body.dataset;
    if (status) d.status = status;
    else delete d.status;
    if (moves) d.moves = moves;
    else delete d.moves;
  }

  // The status of a failed search's answer.
  const failure = (r) => (r.data.timeout || r.data.stopped ? 'timeout' : 'error');

  function setStatus(text, isError) {
    const s = $('status');
    s.textContent = text;
    s.className = isError ? 'error' : '';
  }

  function setVerdict(text, cls) {
    const v = $('verdict');
    v.textContent = text;
    v.className = cls || '';
  }

  // -------------------------------------------------------- grid helpers

  const W = () => state.puzzle.grid.length;
  const H = () => state.puzzle.grid[0].length;
  const isFace = (p) => p.x % 2 === 1 && p.y % 2 === 1;
  const isNode = (p) => p.x % 2 === 0 && p.y % 2 === 0;
  const cell = (p) => state.puzzle.grid[p.x][p.y];
  const key = (p) => p.x + ',' + p.y;

  function blankSlot(x, y) {
    return x % 2 === 1 && y % 2 === 1 ? null : { type: 'line', line: 0 };
  }

  function step(p, d) {
    const [dx, dy] = DIRS[d];
    const y = p.y + dy;
    if (y < 0 || y >= H()) return null;
    let x = p.x + dx;
    if (state.puzzle.pillar) x = (x + W()) % W();
    else if (x < 0 || x >= W()) return null;
    return { x, y };
  }

  function mirror(p) {
    const s = state.puzzle.symmetry;
    if (!s || (!s.x && !s.y)) return p;
    const w = W();
    const h = H();
    const y = s.y ? h - 1 - p.y : p.y;
    let x;
    if (state.puzzle.pillar) {
      x = p.x + w / 2;
      if (s.x) x = (2 * w - x) % w;
      x %= w;
    } else {
      x = s.x ? w - 1 - p.x : p.x;
    }
    return { x, y };
  }

  const symmetric = () => {
    const s = state.puzzle.symmetry;
    return !!(s && (s.x || s.y));
  };

  function slots() {
    if (!state.start) return [];
    const out = [state.start];
    let p = state.start;
    for (const d of state.moves) {
      p = step(p, d);
      if (!p) break;
      out.push(p);
    }
    return out;
  }

  function blocked(p) {
    const c = cell(p);
    return !c || isFace(p) || (c.gap || 0) > 0;
  }

  // Can the line enter slot q, given the slots it already covers?
  function canEnter(q, covered) {
    if (!q || blocked(q) || covered.has(key(q))) return false;
    if (symmetric()) {
      const m = mirror(q);
      if (m.x === q.x && m.y === q.y) return false;
      if (blocked(m) || covered.has(key(m))) return false;
    }
    return true;
  }

  function coveredSet(list) {
    const set = new Set();
    for (const p of list) {
      set.add(key(p));
      if (symmetric()) set.add(key(mirror(p)));
    }
    return set;
  }

  function starts() {
    const out = [];
    for (let x = 0; x < W(); x++) {
      for (let y = 0; y < H(); y++) {
        const c = state.puzzle.grid[x][y];
        if (c && c.start === true && !isFace({ x, y })) out.push({ x, y });
      }
    }
    return out;
  }

  // ------------------------------------------------------------ drawing

  function beginAt(p) {
    state.start = { x: p.x, y: p.y };
    state.moves = [];
  }

  // Takes back the last segment: moves up to the previous node (or start).
  function retract() {
    if (state.moves.length === 0) {
      state.start = null;
      return;
    }
    state.moves.pop();
    let list = slots();
    while (state.moves.length > 0 && !isNode(list[list.length - 1])) {
      state.moves.pop();
      list = slots();
    }
  }

  // One press of an arrow key: a whole segment, or up to an end in the
  // middle of one. Returns true when the line changed.
  function move(d) {
    if (!state.puzzle) return false;
    if (!state.start) {
      const all = starts();
      if (all.length === 0) return false;
      beginAt(all[state.startIndex % all.length]);
    }
    if (state.moves.length > 0 && state.moves[state.moves.length - 1] === OPPOSITE[d]) {
      retract();
      return true;
    }
    let list = slots();
    const head = list[list.length - 1];
    const horizontal = d === 1 || d === 2;
    if (horizontal ? head.y % 2 !== 0 : head.x % 2 !== 0) return false;
    let covered = coveredSet(list);
    const q = step(head, d);
    if (!canEnter(q, covered)) return false;
    state.moves.push(d);
    if (isNode(q) || cell(q).end) return true;
    // An edge with no end: go on to the node beyond it.
    covered = coveredSet(slots());
    const q2 = step(q, d);
    if (!canEnter(q2, covered)) {
      state.moves.pop();
      return false;
    }
    state.moves.push(d);
    return true;
  }

  function sitePath() {
    if (!state.start) return null;
    return [{ x: state.start.x, y: state.start.y }].concat(state.moves, [0]);
  }

  function setSitePath(p) {
    if (!Array.isArray(p) || p.length === 0) return;
    beginAt(p[0]);
    state.moves = p.slice(1).filter((m) => m >= 1 && m <= 4);
  }

  async function redraw() {
    if (!state.puzzle) return;
    const seq = ++state.seq;
    const body = { puzzle: state.puzzle };
    const path = sitePath();
    if (path) body.path = path;
    const r = await api('render', body);
    if (seq !== state.seq) return; // a newer drawing is on its way
    if (!r.ok) {
      setVerdict(r.data.error || 'cannot draw the puzzle', 'bad');
      return;
    }
    $('panel').innerHTML = r.data.svg;
    app.emit('drawn');
    const d = r.data;
    if (!path) setVerdict('');
    else if (d.valid === true) setVerdict('Solved! ' + d.moves, 'ok');
    else if (d.valid === false) {
      const n = d.invalid.length;
      setVerdict('Not solved: ' + n + ' failing element' + (n === 1 ? '' : 's') + ' (ringed in red)', 'bad');
    } else setVerdict('Drawing… ' + (d.moves || ''));
  }

  // Slot coordinates (fractional) under a pointer event.
  function slotAt(ev) {
    const svg = $('panel').querySelector('svg');
    if (!svg) return null;
    const r = svg.getBoundingClientRect();
    const scale = r.width / svg.viewBox.baseVal.width;
    return {
      x: ((ev.clientX - r.left) / scale - OFFSET) / UNIT,
      y: ((ev.clientY - r.top) / scale - OFFSET) / UNIT,
    };
  }

  function wrapX(x) {
    return state.puzzle.pillar ? ((x % W()) + W()) % W() : x;
  }

  function onPointerDown(ev) {
    if (!state.puzzle) return;
    const s = slotAt(ev);
    if (!s) return;
    $('panel').focus();
    const tool = document.querySelector('input[name=tool]:checked').value;
    if (tool !== 'draw') {
      const p = { x: wrapX(Math.round(s.x)), y: Math.round(s.y) };
      if (p.x >= 0 && p.x < W() && p.y >= 0 && p.y < H()) edit(tool, p);
      return;
    }
    if (state.tracing) {
      state.tracing = false;
      return;
    }
    // Start at the nearest start circle.
    let best = null;
    let bestD = 0.7;
    for (const p of starts()) {
      const dd = Math.hypot(p.x - s.x, p.y - s.y);
      if (dd < bestD) {
        best = p;
        bestD = dd;
      }
    }
    if (best) {
      beginAt(best);
      state.tracing = true;
      redraw();
    }
  }

  function onPointerMove(ev) {
    if (!state.tracing || !state.start) return;
    const s = slotAt(ev);
    if (!s) return;
    const list = slots();
    const head = list[list.length - 1];
    let dx = s.x - head.x;
    if (state.puzzle.pillar) {
      const w = W();
      dx = ((dx % w) + w + w / 2) % w - w / 2;
    }
    const dy = s.y - head.y;
    // Move when the pointer is most of a segment away along one axis.
    const need = isNode(head) ? 1.4 : 0.7;
    let d = 0;
    if (Math.abs(dx) >= need && Math.abs(dx) > Math.abs(dy)) d = dx < 0 ? 1 : 2;
    else if (Math.abs(dy) >= need && Math.abs(dy) > Math.abs(dx)) d = dy < 0 ? 3 : 4;
    if (d && move(d)) redraw();
  }

  function onKey(ev) {
    if (!state.puzzle) return;
    if (ev.key in KEYS) {
      ev.preventDefault();
      if (move(KEYS[ev.key])) redraw();
    } else if (ev.key === 'Escape') {
      state.start = null;
      state.moves = [];
      redraw();
    } else if (ev.key === 'Backspace') {
      ev.preventDefault();
      if (state.start) {
        retract();
        redraw();
      }
    } else if (ev.key === 'Enter') {
      ev.preventDefault();
      state.startIndex += 1;
      const all = starts();
      if (all.length > 0) {
        beginAt(all[state.startIndex % all.length]);
        redraw();
      }
    }
  }

  // ------------------------------------------------------------ editing

  function endDirection(p) {
    if (p.y === 0) return 'top';
    if (p.y === H() - 1) return 'bottom';
    if (p.x === 0 && !state.puzzle.pillar) return 'left';
    if (p.x === W() - 1 && !state.puzzle.pillar) return 'right';
    return p.x % 2 === 1 ? 'top' : 'right';
  }

  function edit(tool, p) {
    const g = state.puzzle.grid;
    const faceTools = ['square', 'star', 'triangle', 'poly', 'ylop', 'nega'];
    const color = $('color').value;
    if (faceTools.includes(tool)) {
      if (!isFace(p)) return setStatus('symbols go on the squares of the panel', true);
      const sym = { type: tool, color };
      if (tool === 'triangle') sym.count = Number($('tri-count').value);
      if (tool === 'poly' || tool === 'ylop') {
        sym.polyshape = state.polyMask | ($('poly-rot').checked ? 1 << 20 : 0);
      }
      const old = g[p.x][p.y];
      const same = old && old.type === sym.type && old.color === sym.color &&
        old.count === sym.count && old.polyshape === sym.polyshape;
      g[p.x][p.y] = same ? null : sym;
    } else if (tool === 'erase') {
      g[p.x][p.y] = blankSlot(p.x, p.y);
    } else {
      if (isFace(p)) return setStatus('this goes on the grid lines, not in a square', true);
      const c = g[p.x][p.y] || blankSlot(p.x, p.y);
      g[p.x][p.y] = c;
      if (tool === 'start') {
        c.start = !c.start;
        if (c.start) delete c.gap;
      } else if (tool === 'end') {
        if (c.end) delete c.end;
        else {
          c.end = endDirection(p);
          delete c.gap;
        }
      } else if (tool === 'dot') {
        const kind = Number($('dot-kind').value);
        if (c.dot === kind) delete c.dot;
        else {
          c.dot = kind;
          delete c.gap;
        }
      } else if (tool === 'break' || tool === 'remove') {
        if (isNode(p)) return setStatus('gaps go on edges, between two crossings', true);
        const gap = tool === 'break' ? 1 : 2;
        if (c.gap === gap) delete c.gap;
        else {
          c.gap = gap;
          delete c.dot;
          delete c.start;
          delete c.end;
        }
      }
    }
    state.start = null;
    state.moves = [];
    setStatus('');
    redraw();
  }

  function resize(faceW, faceH, pillar) {
    const old = state.puzzle.grid;
    const w = pillar ? 2 * faceW : 2 * faceW + 1;
    const h = 2 * faceH + 1;
    const grid = [];
    for (let x = 0; x < w; x++) {
      const col = [];
      for (let y = 0; y < h; y++) {
        const keep = x < old.length && y < old[0].length;
        col.push(keep ? old[x][y] : blankSlot(x, y));
      }
      grid.push(col);
    }
    state.puzzle.grid = grid;
    state.puzzle.pillar = pillar;
    state.puzzle.width = w;
    state.puzzle.height = h;
    state.start = null;
    state.moves = [];
  }

  function syncControls() {
    // A line of one's own belongs to the puzzle made for it.
    state.myLine = null;
    $('show-line').hidden = true;
    const p = state.puzzle;
    $('pillar').checked = !!p.pillar;
    $('undirected').checked = !!p.undirected;
    $('width').value = Math.floor(W() / 2);
    $('height').value = Math.floor(H() / 2);
    const s = p.symmetry || {};
    $('symmetry').value = s.x && s.y ? 'xy' : s.x ? 'x' : s.y ? 'y' : 'none';
  }

  function newPuzzle(w, h) {
    state.puzzle = { name: 'New puzzle', pillar: false, grid: [[{ type: 'line', line: 0 }]] };
    resize(w, h, false);
    state.puzzle.grid[0][2 * h].start = true;
    state.puzzle.grid[2 * w][0].end = 'right';
    syncControls();
  }

  function buildPolyGrid() {
    const box = $('poly-grid');
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++) {
        const b = document.createElement('button');
        const bit = 1 << (x * 4 + y);
        b.type = 'button';
        b.title = 'square ' + x + ',' + y;
        if (state.polyMask & bit) b.classList.add('on');
        b.addEventListener('click', () => {
          state.polyMask ^= bit;
          b.classList.toggle('on');
        });
        box.appendChild(b);
      }
    }
  }

  // ------------------------------------------------------------ actions

  // Puts `puzzle` on the panel in place of the last, with no line drawn
  // and no answer shown.
  function show(puzzle) {
    state.puzzle = puzzle;
    state.start = null;
    state.moves = [];
    state.startIndex = 0;
    answered();
    syncControls();
  }

  async function load(text) {
    text = text.trim();
    if (!text) return setStatus('paste or open a puzzle first', true);
    const r = await api('convert', { puzzle: text, to: 'json' });
    if (!r.ok) {
      setStatus(r.data.error, true);
      return false;
    }
    show(r.data.puzzle);
    await redraw();
    setStatus('Loaded (' + r.data.from + ').');
    $('panel').focus();
    app.emit('loaded');
    return true;
  }

  async function busy(button, work) {
    button.disabled = true;
    try {
      await work();
    } finally {
      button.disabled = false;
    }
  }

  function wire() {
    $('load').addEventListener('click', () => app.open($('source').value));
    $('file').addEventListener('change', async (ev) => {
      const f = ev.target.files[0];
      if (!f) return;
      if (f.size > 1 << 20) return setStatus('the file is larger than 1 MiB', true);
      const text = await f.text();
      $('source').value = text;
      app.open(text);
    });
    $('new').addEventListener('click', async () => {
      newPuzzle(4, 4);
      await redraw();
      setStatus('A new empty panel.');
    });
    $('generate').addEventListener('click', (ev) => busy(ev.target, async () => {
      const preset = $('gen-preset').value;
      const [width, height] = $('gen-size').value.split('x').map(Number);
      const seed = Math.floor(Math.random() * 2 ** 32);
      setStatus('Making a puzzle…');
      const r = await api('generate', { preset, width, height, seed });
      if (!r.ok) return setStatus(r.data.error, true);
      show(r.data.puzzle);
      await redraw();
      setStatus('A new ' + preset + ' puzzle with exactly one solution (seed ' + seed +
        ', difficulty ' + r.data.difficulty + ').');
      $('panel').focus();
    }));
    // A puzzle around the line drawn: the generator's only solution is
    // that line; it is hidden until "Show my line".
    $('around').addEventListener('click', (ev) => busy(ev.target, async () => {
      if (!state.puzzle || !state.start || state.moves.length === 0) {
        return setStatus('draw a line first, then make a puzzle for it', true);
      }
      const line = sitePath();
      const preset = $('gen-preset').value;
      const width = state.puzzle.pillar ? W() / 2 : (W() - 1) / 2;
      const height = (H() - 1) / 2;
      const seed = Math.floor(Math.random() * 2 ** 32);
      setStatus('Making a puzzle for your line…');
      // The panel's pillar and symmetry carry over to the puzzle made.
      const pillar = !!state.puzzle.pillar;
      const symmetry = state.puzzle.symmetry || null;
      const r = await api('generate', { preset, width, height, seed, pillar, symmetry, around: line });
      if (!r.ok) return setStatus(r.data.error, true);
      show(r.data.puzzle);
      state.myLine = r.data.solution;
      $('show-line').dataset.moves = r.data.moves;
      $('show-line').hidden = false;
      await redraw();
      setStatus('A ' + preset + ' puzzle whose only solution is your line (seed ' + seed + ').');
      $('panel').focus();
    }));
    $('show-line').addEventListener('click', async () => {
      if (!state.myLine) return;
      setSitePath(state.myLine);
      await redraw();
      setStatus('Your line: ' + $('show-line').dataset.moves);
    });
    $('hint').addEventListener('click', (ev) => busy(ev.target, async () => {
      if (!state.puzzle) return setStatus('load a puzzle first', true);
      setStatus('Looking for a hint…');
      const r = await api('hint', { puzzle: state.puzzle });
      if (!r.ok) return setStatus(r.data.stopped ? 'Stopped.' : r.data.error, true);
      if (!r.data.path) return setStatus('No solution: no hint to give.', true);
      setSitePath(r.data.path);
      await redraw();
      setStatus('Hint: the line begins ' + r.data.moves);
    }));
    $('solve').addEventListener('click', (ev) => busy(ev.target, async () => {
      if (!state.puzzle) return setStatus('load a puzzle first', true);
      setStatus('Solving…');
      answered();
      const r = await api('solve', { puzzle: state.puzzle });
      if (!r.ok) {
        answered(failure(r));
        return setStatus(r.data.stopped ? 'Stopped.' : r.data.error, true);
      }
      if (!r.data.solved) {
        answered(r.data.status === 'timeout' ? 'timeout' : 'none');
        const why = r.data.why || [];
        if (r.data.why_no_line) return setStatus('This puzzle has no solution: no line reaches an end at all.', true);
        if (why.length === 0) return setStatus('This puzzle has no solution.', true);
        // Ring the symbols that cannot all be satisfied.
        const d = await api('render', { puzzle: state.puzzle, solve: true });
        if (d.ok) $('panel').innerHTML = d.data.svg;
        return setStatus('This puzzle has no solution: the ' + why.length + ' ringed symbol' +
          (why.length === 1 ? '' : 's') + ' cannot all be satisfied.', true);
      }
      setSitePath(r.data.path);
      await redraw();
      setStatus('Solved in ' + r.data.ms + ' ms: ' + r.data.moves);
      answered('solved', r.data.moves);
    }));
    $('count').addEventListener('click', (ev) => busy(ev.target, async () => {
      if (!state.puzzle) return setStatus('load a puzzle first', true);
      setStatus('Counting…');
      delete document.body.dataset.count;
      const r = await api('count', { puzzle: state.puzzle, limit: 100000 });
      if (!r.ok) return setStatus(r.data.stopped ? 'Stopped.' : r.data.error, true);
      // A number, or past 2^53 a string of digits: shown grouped by
      // thousands either way, never rounded.
      const n = String(r.data.count);
      const exact = r.data.exhaustive;
      const shown = n.replace(/\B(?=(\d{3})+$)/g, ',');
      const what = !exact ? 'at least ' + shown + ' solution' + (n === '1' ? '' : 's')
        : n === '1' ? 'unique: 1 solution' : shown + ' solutions';
      setStatus(what + (r.data.timeout ? ' (time limit reached)' : '') + ' (' + r.data.ms + ' ms)');
      document.body.dataset.count = (exact ? '' : '>=') + n;
    }));
    $('clear').addEventListener('click', () => {
      state.start = null;
      state.moves = [];
      redraw();
    });
    $('resize').addEventListener('click', () => {
      if (!state.puzzle) newPuzzle(4, 4);
      const w = Math.max(1, Math.min(10, Number($('width').value) || 1));
      const h = Math.max(1, Math.min(10, Number($('height').value) || 1));
      resize(w, h, !!state.puzzle.pillar);
      redraw();
    });
    // Mirrored or turned a quarter, the panel is the same puzzle to a
    // player; the line drawn on it goes.
    for (const [id, turn] of [['turn-x', 'x'], ['turn-y', 'y'], ['turn-tx', 'tx']]) {
      $(id).addEventListener('click', (ev) => busy(ev.target, async () => {
        if (!state.puzzle) newPuzzle(4, 4);
        const r = await api('convert', { puzzle: state.puzzle, to: 'json', turn });
        if (!r.ok) return setStatus(r.data.error, true);
        show(r.data.puzzle);
        await redraw();
        setStatus('Turned.');
      }));
    }
    $('pillar').addEventListener('change', (ev) => {
      if (!state.puzzle) newPuzzle(4, 4);
      resize(Math.floor(W() / 2), Math.floor(H() / 2), ev.target.checked);
      redraw();
    });
    $('undirected').addEventListener('change', (ev) => {
      if (!state.puzzle) newPuzzle(4, 4);
      if (ev.target.checked) state.puzzle.undirected = true;
      else delete state.puzzle.undirected;
      redraw();
    });
    $('symmetry').addEventListener('change', (ev) => {
      if (!state.puzzle) newPuzzle(4, 4);
      const v = ev.target.value;
      state.puzzle.symmetry = v === 'none' ? null : { x: v.includes('x'), y: v.includes('y') };
      state.start = null;
      state.moves = [];
      redraw();
    });
    // Each export replaces the last: its text and its links go first.
    const clearExport = () => {
      $('exported').value = '';
      $('download').hidden = true;
      $('windmill').hidden = true;
    };
    $('export').addEventListener('click', () => {
      if (!state.puzzle) return setStatus('nothing to export yet', true);
      clearExport();
      const text = JSON.stringify(state.puzzle);
      $('exported').value = text;
      const a = $('download');
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      a.hidden = false;
    });
    // The Windmill code of the panel, with a link to play it there; what a
    // code cannot hold (a pillar, a coloured dot) is named in the status.
    $('export-windmill').addEventListener('click', (ev) => busy(ev.target, async () => {
      if (!state.puzzle) return setStatus('nothing to export yet', true);
      clearExport();
      const r = await api('convert', { puzzle: state.puzzle, to: 'windmill' });
      if (!r.ok) return setStatus(r.data.error, true);
      $('exported').value = r.data.puzzle;
      const link = $('windmill');
      link.href = 'https://windmill.thefifthmatt.com/build/' + r.data.puzzle;
      link.hidden = false;
      setStatus('Windmill code written' + (r.data.note ? ' (note: ' + r.data.note + ').' : '.'));
    }));
    const panel = $('panel');
    panel.addEventListener('pointerdown', onPointerDown);
    panel.addEventListener('pointermove', onPointerMove);
    panel.addEventListener('keydown', onKey);
    document.addEventListener('pointerup', () => {
      state.tracing = false;
    });
    buildPolyGrid();
  }

  // What player.js (and other additions) use: the state, the actions, and
  // events ('loaded' after a puzzle is loaded, 'drawn' after each drawing).
  const listeners = {};
  const app = {
    state,
    api,
    load,
    open: load, // what "Show" and "Open file" do with a text; player.js widens it
    redraw,
    setStatus,
    syncControls,
    answered,
    on(name, f) {
      (listeners[name] = listeners[name] || []).push(f);
    },
    emit(name) {
      for (const f of listeners[name] || []) f();
    },
  };
  window.witnessApp = app;

  wire();
  newPuzzle(4, 4);
  redraw();
})();
