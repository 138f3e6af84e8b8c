// What players of other tools expect of the page, on top of app.js
// (through `window.witnessApp`):
// - share links: `#puzzle=<the puzzle in any format, percent-encoded>`
//   opens it, `&solve` also solves it; "Copy link" gives the shortest
//   form (the text form or compact JSON);
// - puzzle lists: a file or paste holding many puzzles, one a line (a
//   JSON line may wrap one as {"id", "puzzle"}), stepped through with the
//   buttons, Page Up and Page Down, or the arrow keys outside the panel
//   (clicking the panel draws there again), each shown with its id;
// - paste from the clipboard; undo and redo of edits (Ctrl+Z, Ctrl+Y);
// - Stop, which cancels the running search, and the time a search has
//   run so far.
'use strict';

(function () {
  const app = window.witnessApp;
  const state = app.state;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------- puzzle lists

  const list = { items: [], at: 0 }; // items: {id, text}

  // One entry per non-empty line, or null when the lines are not puzzles
  // on their own (a multi-line format such as the text form or a maze).
  function splitLines(text) {
    const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
    if (lines.length < 2) return null;
    return lines.map((line, i) => {
      let id = 'line ' + (i + 1);
      let puzzle = line;
      if (line.startsWith('{')) {
        try {
          const v = JSON.parse(line);
          if (v && v.puzzle !== undefined && !v.grid) {
            puzzle = typeof v.puzzle === 'string' ? v.puzzle : JSON.stringify(v.puzzle);
          }
          id = v.id || v.name || (v.puzzle && v.puzzle.name) || id;
        } catch (e) {
          // Not JSON after all: read as it stands.
        }
      }
      return { id: String(id), text: puzzle };
    });
  }

  async function show(k) {
    if (list.items.length === 0) return;
    list.at = Math.max(0, Math.min(list.items.length - 1, k));
    const item = list.items[list.at];
    $('list-pos').textContent = (list.at + 1) + ' / ' + list.items.length + ': ' + item.id;
    await app.load(item.text);
    document.body.dataset.puzzleId = item.id;
    // The arrow keys go on stepping until the panel is clicked to draw.
    $('panel').blur();
  }

  // "Show" and "Open file": one puzzle, or a list of them.
  async function open(text) {
    const lines = splitLines(text.trim());
    if (lines) {
      // A whole text that reads as one puzzle (a pretty-printed JSON, a
      // maze) stays one puzzle.
      const whole = await app.api('convert', { puzzle: text.trim(), to: 'json' });
      if (!whole.ok) {
        list.items = lines;
        $('list').hidden = false;
        return show(0);
      }
    }
    list.items = [];
    $('list').hidden = true;
    delete document.body.dataset.puzzleId;
    return app.load(text);
  }
  app.open = open;

  // ------------------------------------------------------- share links

  // The puzzle's shortest form: the text form or compact JSON.
  async function compact() {
    const json = JSON.stringify(state.puzzle);
    const r = await app.api('convert', { puzzle: state.puzzle, to: 'text' });
    return r.ok && r.data.puzzle.length < json.length ? r.data.puzzle : json;
  }

  async function copyLink() {
    if (!state.puzzle) return app.setStatus('nothing to link to yet', true);
    const link = location.href.split('#')[0] + '#puzzle=' + encodeURIComponent(await compact());
    $('exported').value = link;
    $('link').href = link;
    $('link').hidden = false;
    try {
      await navigator.clipboard.writeText(link);
      app.setStatus('Link copied (' + link.length + ' characters).');
    } catch (e) {
      app.setStatus('Link below (the clipboard is not available here).');
    }
  }

  async function openFromAddress() {
    const hash = location.hash.replace(/^#/, '');
    if (!hash) return;
    const params = new URLSearchParams(hash.replace(/\+/g, '%2B'));
    const puzzle = params.get('puzzle');
    if (puzzle === null) return;
    $('source').value = puzzle;
    const ok = await app.load(puzzle);
    if (!ok) {
      app.answered('error');
      return;
    }
    if (params.has('solve')) $('solve').click();
  }

  // ------------------------------------------------------- undo, redo

  const history = { undo: [], redo: [], last: null, quiet: false };

  function snapshot() {
    return state.puzzle ? JSON.stringify(state.puzzle) : null;
  }

  // After each drawing: an edit since the last one goes on the undo stack.
  app.on('drawn', () => {
    const now = snapshot();
    if (history.quiet) {
      history.quiet = false;
    } else if (history.last !== null && now !== history.last) {
      history.undo.push(history.last);
      if (history.undo.length > 200) history.undo.shift();
      history.redo = [];
    }
    history.last = now;
    $('undo').disabled = history.undo.length === 0;
    $('redo').disabled = history.redo.length === 0;
  });

  // A loaded puzzle starts a history of its own.
  app.on('loaded', () => {
    history.undo = [];
    history.redo = [];
    history.last = snapshot();
    $('undo').disabled = true;
    $('redo').disabled = true;
  });

  function travel(from, to) {
    if (from.length === 0) return;
    to.push(snapshot());
    state.puzzle = JSON.parse(from.pop());
    state.start = null;
    state.moves = [];
    history.quiet = true;
    history.last = snapshot();
    app.syncControls();
    app.redraw();
  }

  // ------------------------------------------------------- searches

  let ticker = null;

  // While a search runs: Stop is enabled and the status tells the time.
  function watch(button) {
    button.addEventListener('click', () => {
      const t0 = performance.now();
      const base = $('status').textContent;
      $('stop').disabled = false;
      clearInterval(ticker);
      ticker = setInterval(() => {
        if (!button.disabled) {
          clearInterval(ticker);
          $('stop').disabled = true;
          return;
        }
        const s = Math.round((performance.now() - t0) / 1000);
        if (s >= 1) app.setStatus(base.replace(/….*$/, '…') + ' ' + s + ' s (Stop cancels)');
      }, 250);
    });
  }

  // ------------------------------------------------------- wiring

  function wire() {
    $('prev').addEventListener('click', () => show(list.at - 1));
    $('next').addEventListener('click', () => show(list.at + 1));
    document.addEventListener('keydown', (ev) => {
      const t = ev.target;
      const typing = t && (t.id === 'panel' || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
      if ((ev.ctrlKey || ev.metaKey) && !typing && (ev.key === 'z' || ev.key === 'y')) {
        ev.preventDefault();
        if (ev.key === 'z' && !ev.shiftKey) travel(history.undo, history.redo);
        else travel(history.redo, history.undo);
        return;
      }
      if (list.items.length === 0 || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      // Page Up and Page Down step anywhere; the arrow keys outside the
      // panel and text boxes.
      const back = ev.key === 'PageUp' || (!typing && (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp'));
      const on = ev.key === 'PageDown' || (!typing && (ev.key === 'ArrowRight' || ev.key === 'ArrowDown'));
      if (back) {
        ev.preventDefault();
        show(list.at - 1);
      } else if (on) {
        ev.preventDefault();
        show(list.at + 1);
      }
    });
    $('undo').addEventListener('click', () => travel(history.undo, history.redo));
    $('redo').addEventListener('click', () => travel(history.redo, history.undo));
    $('copy-link').addEventListener('click', copyLink);
    $('paste').addEventListener('click', async () => {
      let text;
      try {
        text = await navigator.clipboard.readText();
      } catch (e) {
        return app.setStatus('the clipboard cannot be read here: paste into the box', true);
      }
      $('source').value = text;
      open(text);
    });
    // Ctrl+V outside a text box opens what is pasted.
    document.addEventListener('paste', (ev) => {
      const t = ev.target;
      if (t && /^(INPUT|TEXTAREA)$/.test(t.tagName)) return;
      const text = ev.clipboardData && ev.clipboardData.getData('text');
      if (!text) return;
      ev.preventDefault();
      $('source').value = text;
      open(text);
    });
    $('stop').addEventListener('click', () => {
      if (window.WitnessBackend.stop()) app.setStatus('Stopped.', true);
    });
    for (const id of ['solve', 'count', 'hint']) watch($(id));
    window.addEventListener('hashchange', openFromAddress);
  }

  wire();
  window.WitnessBackend.ready.then(openFromAddress);
})();
