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

# shellcheck source=tests/browser/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_witness_bin
WITNESS_BIN="$(realpath "$WITNESS_BIN")"
dist="${WEB_DIST:-}"
if [ -z "$dist" ]; then
  "$root/scripts/build-web"
  dist="$root/web/dist"
fi
dist="$(realpath "$dist")"
need_node_modules

start_server python3 -u -m http.server --bind 127.0.0.1 --directory "$dist" 0
port="$(wait_for_log 'port [0-9]*' | cut -d' ' -f2)"
url="http://127.0.0.1:$port/"
echo "static.sh: testing $url (static, $dist) with $chromium"

cd "$here"
WITNESS_URL="$url" WITNESS_BACKEND=wasm WITNESS_BIN="$WITNESS_BIN" CHROMIUM="$chromium" \
  node --test --test-concurrency=1 --test-reporter=spec run-tests.mjs static-tests.mjs
