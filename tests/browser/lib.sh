# What run.sh and static.sh share (sourced, not run): the browser, the
# native binary, the test packages, and a background server whose output
# goes to a log file, stopped when the script exits.
#
# Sets: name (the script's name, for messages), here (this folder), root
# (the project root), chromium (the browser).

name="$(basename "$0")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "$name: $chromium not found; install it with: apt-get install -y chromium" >&2
  exit 2
fi

# Sets WITNESS_BIN to a debug build of the binary unless it is set.
need_witness_bin() {
  if [ -z "${WITNESS_BIN:-}" ]; then
    (cd "$root" && cargo build --quiet -p witness-cli --bin witness)
    WITNESS_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/witness"
  fi
}

# Installs playwright-core (which has no browser download step; the tests
# use $chromium) unless it is there.
need_node_modules() {
  if [ ! -d "$here/node_modules/playwright-core" ]; then
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# start_server CMD...: runs CMD in the background with its output in $log;
# it is stopped and $log removed when the script exits.
start_server() {
  log="$(mktemp)"
  "$@" >"$log" 2>&1 &
  server=$!
  trap stop_server EXIT
}

stop_server() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$log"
}

# wait_for_log REGEX: prints the first match of REGEX in the server's log,
# waiting up to 10 s; fails, showing the log, if the server exits first or
# the match never comes.
wait_for_log() {
  local found=""
  for _ in $(seq 1 100); do
    found="$(grep -o "$1" "$log" | head -n1 || true)"
    if [ -n "$found" ]; then
      echo "$found"
      return 0
    fi
    if ! kill -0 "$server" 2>/dev/null; then
      echo "$name: the server exited:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "$name: the server did not start within 10 s:" >&2
  cat "$log" >&2
  return 1
}
