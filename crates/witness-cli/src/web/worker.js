// A Web Worker of the static page: answers the page's requests with the
// witness library compiled to WebAssembly (witness.wasm, built by
// scripts/build-web from crates/witness-web). A request is {id, op, body};
// the answer {id, status, data} is what `witness serve` gives for
// POST /api/<op>, with `ms` measured here.
'use strict';

let module = null;

async function load() {
  if (module) return module;
  const res = await fetch('witness.wasm');
  if (!res.ok) throw new Error('witness.wasm could not be loaded (' + res.status + ')');
  const bytes = await res.arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  module = instance.exports;
  return module;
}

function ask(ex, request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const p = ex.witness_alloc(bytes.length);
  new Uint8Array(ex.memory.buffer, p, bytes.length).set(bytes);
  const n = ex.witness_call(p, bytes.length);
  const out = new Uint8Array(ex.memory.buffer, ex.witness_reply(), n);
  return JSON.parse(new TextDecoder().decode(out));
}

self.onmessage = async (ev) => {
  const { id, op, body } = ev.data;
  let ex;
  try {
    ex = await load();
  } catch (e) {
    self.postMessage({ id, status: 500, data: { error: e.message }, fatal: true });
    return;
  }
  try {
    const t0 = performance.now();
    const r = ask(ex, Object.assign({}, body, { op }));
    const ms = performance.now() - t0;
    if (r.body && typeof r.body.ms === 'number') r.body.ms = Math.round(ms * 1000) / 1000;
    self.postMessage({ id, status: r.status, data: r.body });
  } catch (e) {
    // A trap (a panic, or a panel deeper than the stack): the module's
    // memory cannot be trusted any more, so the page starts a new worker.
    self.postMessage({ id, status: 500, data: { error: 'the solver stopped: ' + e.message }, fatal: true });
  }
};
