// Where the page's questions go: `witness serve`'s JSON API, or, on a
// static host (the build of scripts/build-web), the library compiled to
// WebAssembly running in Web Workers (worker.js). Both answer the same
// requests with the same JSON, so the rest of the page does not care which.
//
// The page picks at load: `?backend=api` or `?backend=wasm` in the address
// decides; else a page opened from a file uses the workers, and a page
// whose server answers GET api/health uses the API.
//
// Workers: one answers quick requests (render, convert, check) and one
// the searches (solve, count, hint, generate, and a render that solves),
// so drawing goes on during a long search. Stopping a search ends its worker and starts a new one; a
// search that runs past its time limit is stopped the same way.
'use strict';

(function () {
  const SEARCHES = new Set(['solve', 'count', 'hint', 'generate']);
  // Time limits of searches in the workers, in milliseconds (the server
  // has its own). Counts have none: they run until done or stopped.
  const LIMIT_MS = { solve: 60000, hint: 60000, count: 0, generate: 60000, render: 60000 };
  // A search: one of SEARCHES, or a render that solves the puzzle.
  const isSearch = (op, body) => SEARCHES.has(op) || (op === 'render' && !!body && body.solve === true);

  // A Web Worker running worker.js, with its pending requests.
  class Lane {
    constructor() {
      this.next = 1;
      this.pending = new Map();
      this.start();
    }

    start() {
      this.worker = new Worker('worker.js');
      this.worker.onmessage = (ev) => {
        const { id, status, data, fatal } = ev.data;
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        clearTimeout(p.timer);
        p.resolve({ ok: status >= 200 && status < 300, status, data });
        // A trap leaves the module in no state to go on.
        if (fatal) this.restart();
      };
      this.worker.onerror = (ev) => {
        ev.preventDefault();
        this.fail(500, 'the solver could not run: ' + (ev.message || 'worker error'));
        this.restart();
      };
    }

    // Ends every pending request with this answer.
    fail(status, error, extra) {
      for (const p of this.pending.values()) {
        clearTimeout(p.timer);
        p.resolve({ ok: false, status, data: Object.assign({ error }, extra || {}) });
      }
      this.pending.clear();
    }

    restart() {
      this.worker.terminate();
      this.start();
    }

    // Stops whatever runs: its requests are answered as stopped.
    stop(status, error, extra) {
      if (this.pending.size === 0) return false;
      this.fail(status, error, extra);
      this.restart();
      return true;
    }

    call(op, body, limitMs) {
      const id = this.next++;
      return new Promise((resolve) => {
        const p = { resolve, timer: null };
        if (limitMs > 0) {
          p.timer = setTimeout(() => {
            this.stop(504, 'no answer within the time limit of ' + limitMs + ' ms', { timeout: true });
          }, limitMs);
        }
        this.pending.set(id, p);
        this.worker.postMessage({ id, op, body });
      });
    }
  }

  const backend = {
    mode: null, // 'api' or 'wasm', once ready
    ready: null, // a promise of the mode
    quick: null,
    search: null,
    aborts: new Set(), // the API's searches running, to stop them

    // Asks `op` with the JSON `body`; answers {ok, status, data}.
    async call(op, body) {
      const mode = await this.ready;
      return mode === 'api' ? this.fetchApi(op, body) : this.callWorker(op, body);
    },

    callWorker(op, body) {
      if (!this.quick) {
        try {
          this.quick = new Lane();
          this.search = new Lane();
        } catch (e) {
          this.quick = null;
          const error = 'the page cannot start its Web Worker here (serve the folder over HTTP): ' + e.message;
          return Promise.resolve({ ok: false, status: 0, data: { error } });
        }
      }
      const search = isSearch(op, body);
      return (search ? this.search : this.quick).call(op, body, search ? LIMIT_MS[op] || 0 : 0);
    },

    async fetchApi(op, body) {
      const ctl = new AbortController();
      const search = isSearch(op, body);
      if (search) this.aborts.add(ctl);
      let res;
      try {
        res = await fetch('api/' + op, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: ctl.signal,
        });
      } catch (e) {
        if (ctl.signal.aborted) return { ok: false, status: 499, data: { error: 'stopped', stopped: true } };
        return { ok: false, status: 0, data: { error: 'the server cannot be reached: ' + e.message } };
      } finally {
        if (search) this.aborts.delete(ctl);
      }
      let data;
      try {
        data = await res.json();
      } catch (e) {
        data = { error: 'the server sent an unreadable answer (' + res.status + ')' };
      }
      if (res.status === 504) data.timeout = true;
      return { ok: res.ok, status: res.status, data };
    },

    // Stops the running searches; true when one was running.
    stop() {
      if (this.mode === 'api') {
        const any = this.aborts.size > 0;
        for (const c of this.aborts) c.abort();
        this.aborts.clear();
        return any;
      }
      return !!this.search && this.search.stop(499, 'stopped', { stopped: true });
    },
  };

  async function detect() {
    const asked = new URLSearchParams(location.search).get('backend');
    if (asked === 'api' || asked === 'wasm') return asked;
    if (location.protocol === 'file:') return 'wasm';
    try {
      const res = await fetch('api/health', { cache: 'no-store' });
      if (res.ok && (await res.json()).ok === true) return 'api';
    } catch (e) {
      // No server: the workers answer.
    }
    return 'wasm';
  }

  backend.ready = detect().then((mode) => {
    backend.mode = mode;
    document.documentElement.dataset.backend = mode;
    return mode;
  });
  window.WitnessBackend = backend;
})();
