#!/usr/bin/env bash
# Runs the browser tests of `witness serve`: builds the binary, starts the
# server on a free loopback port, runs tests/browser/run-tests.mjs in
# Debian's headless Chromium (playwright-core, never a downloaded browser),
# and stops the server.
#
# Needs: /usr/bin/chromium (apt-get install -y chromium), node and npm.
# Environment:
#   WITNESS_BIN         use this binary instead of building one
#   CHROMIUM            the browser (default /usr/bin/chromium)
#   WITNESS_SCREENSHOT  also save a screenshot of the page to this file
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "run.sh: $chromium not found; install it with: apt-get install -y chromium" >&2
  exit 2
fi

if [ -z "${WITNESS_BIN:-}" ]; then
  (cd "$root" && cargo build --quiet -p witness-cli --bin witness)
  WITNESS_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/witness"
fi

if [ ! -d "$here/node_modules/playwright-core" ]; then
  # playwright-core has no browser download step; the tests use $chromium.
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

log="$(mktemp)"
"$WITNESS_BIN" serve --port 0 --bind 127.0.0.1 >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$log" | head -n1 || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "run.sh: the server exited:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "run.sh: the server did not start within 10 s:" >&2
  cat "$log" >&2
  exit 1
fi
echo "run.sh: testing $url with $chromium"

cd "$here"
WITNESS_URL="$url" WITNESS_BACKEND=api CHROMIUM="$chromium" node --test --test-reporter=spec run-tests.mjs
