# shellcheck shell=bash
# One progress line per setup phase; the phase's own output goes to a log file.
# Sourced by scripts/setup.sh, scripts/build-engines.sh and scripts/build-debian-host.sh.

# step LOG LABEL COMMAND [ARG…]: runs COMMAND (a program or a shell function) with its stdout and
# stderr written to LOG (created anew, with its folder; its first line is `== time: command`)
# and prints one line, `LABEL … done (N s)`, N in whole seconds. When COMMAND fails the line ends
# `failed (N s, exit status S)`, and stderr gets the last 40 lines of LOG, the line in STEP_NOTE if set (what
# routine lines in that tail mean), and LOG's path; step then returns COMMAND's exit status.
# Call step as a plain statement, not from `if`, `||` or `&&`: there bash ignores `set -e` inside
# every function it calls (bash(1), "set -e"), so a COMMAND function would carry on past a failed
# line. Called plainly, COMMAND runs in a subshell with the caller's `set -e`, in the foreground
# (a terminal's Ctrl-C reaches it).
step() {
  local log=$1 label=$2 start status errexit=0
  shift 2
  [[ $- == *e* ]] && errexit=1
  mkdir -p "$(dirname "$log")"
  # A new file, not the old one emptied: a hard-linked copy of .tools (cp -al, a second checkout
  # sharing the built tools) must not have its log written through to the other checkout's.
  rm -f "$log"
  printf '== %s: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >"$log"
  start=$SECONDS
  printf '%s … ' "$label"
  set +e
  (
    ((errexit)) && set -e
    "$@"
  ) </dev/null >>"$log" 2>&1
  status=$?
  ((errexit)) && set -e
  if ((status == 0)); then
    echo "done ($((SECONDS - start)) s)"
    return 0
  fi
  echo "failed ($((SECONDS - start)) s, exit status $status)"
  {
    echo "---- last 40 lines of $log:"
    tail -n 40 "$log"
    echo "----"
    [ -z "${STEP_NOTE:-}" ] || echo "note: $STEP_NOTE"
    echo "full log: $log"
  } >&2
  return "$status"
}
