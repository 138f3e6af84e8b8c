#!/usr/bin/env bash
# Runs the browser tests of the static page: builds web/dist
# (scripts/build-web), serves it with Python's plain static file server on
# a free loopback port, and runs run-tests.mjs (the page's own tests, now
# answered by the Web Worker) and static-tests.mjs in Debian's headless
# Chromium.
#
# Needs: /usr/bin/chromium, node and npm, python3.
# Environment:
#   WITNESS_BIN    the native binary that checks the page's answers
#                  (default: built here)
#   WEB_DIST       test this folder instead of building web/dist
#   CHROMIUM       the browser (default /usr/bin/chromium)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "static.sh: $chromium not found; install it with: apt-get install -y chromium" >&2
  exit 2
fi

if [ -z "${WITNESS_BIN:-}" ]; then
  (cd "$root" && cargo build --quiet -p witness-cli --bin witness)
  WITNESS_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/witness"
fi
WITNESS_BIN="$(realpath "$WITNESS_BIN")"
dist="${WEB_DIST:-}"
if [ -z "$dist" ]; then
  "$root/scripts/build-web"
  dist="$root/web/dist"
fi
dist="$(realpath "$dist")"

if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

log="$(mktemp)"
python3 -u -m http.server --bind 127.0.0.1 --directory "$dist" 0 >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT

port=""
for _ in $(seq 1 100); do
  port="$(grep -o 'port [0-9]*' "$log" | head -n1 | cut -d' ' -f2 || true)"
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "static.sh: the static server did not start:" >&2
  cat "$log" >&2
  exit 1
fi
url="http://127.0.0.1:$port/"
echo "static.sh: testing $url (static, $dist) with $chromium"

cd "$here"
WITNESS_URL="$url" WITNESS_BACKEND=wasm WITNESS_BIN="$WITNESS_BIN" CHROMIUM="$chromium" \
  node --test --test-concurrency=1 --test-reporter=spec run-tests.mjs static-tests.mjs
