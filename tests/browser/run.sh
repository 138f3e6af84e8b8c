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

# shellcheck source=tests/browser/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

need_witness_bin
need_node_modules
start_server "$WITNESS_BIN" serve --port 0 --bind 127.0.0.1
url="$(wait_for_log 'http://127\.0\.0\.1:[0-9]*/')"
echo "run.sh: testing $url with $chromium"

cd "$here"
WITNESS_URL="$url" WITNESS_BACKEND=api CHROMIUM="$chromium" node --test --test-reporter=spec run-tests.mjs
