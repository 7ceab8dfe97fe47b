#!/usr/bin/env bash
# Runs one command inside a throw-away sandbox for the k2s-dns end-to-end tests:
#   - a new network namespace `k2sdns-<random>` (only `lo`, no route out),
#   - a new private mount namespace (see inner.sh: private copy of /etc, tmpfs /run,
#     /var/lib, /var/log, /opt),
#   - a new PID namespace with its own /proc (unshare --pid --fork --mount-proc): CMD sees
#     only the processes it started, so no lookup by PID or /proc walk can reach another
#     engineer's test bed on this machine (several run at once), and whatever CMD leaves
#     running ends with it (the kernel kills a PID namespace's processes when its init,
#     inner.sh, exits: pid_namespaces(7)).
# Usage: bash e2e/bed/sandbox.sh CMD [ARGS...]
#
# Exit status: CMD's status; 77 when not run as root (namespaces need root — 77 is the
# automake/meson "skipped" code, so the caller decides whether a skip is acceptable);
# 70 when the host's real /etc/resolv.conf changed while CMD ran (must never happen).
#
# Cleanup is unconditional (trap on EXIT INT TERM): every process still in the namespace
# (`ip netns pids`, all started by us) is killed, then the namespace is deleted.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [[ $# -lt 1 ]]; then
  echo "usage: bash e2e/bed/sandbox.sh CMD [ARGS...]" >&2
  exit 64
fi

if [[ "$(id -u)" -ne 0 ]]; then
  echo "skipped: the e2e sandbox needs root (network and mount namespaces); run as root, e.g. sudo npm run test:e2e" >&2
  exit 77
fi

# Fingerprint of the real /etc/resolv.conf: kind, exact link target, content hash, mode, owner.
# Compared after CMD: any difference means the sandbox leaked, which we report loudly.
fingerprint() {
  local f=/etc/resolv.conf
  if [[ -L "$f" ]]; then
    printf 'symlink %s ' "$(readlink "$f")"
  elif [[ -e "$f" ]]; then
    printf 'file '
  else
    printf 'absent'
    return 0
  fi
  if [[ -e "$f" ]]; then
    printf '%s %s' "$(sha256sum <"$f" | cut -d' ' -f1)" "$(stat -L -c '%a %u:%g' "$f")"
  else
    printf 'dangling'
  fi
}

before="$(fingerprint)"
ns="k2sdns-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')"

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if ip netns list | grep -qw -- "$ns"; then
    # Every process in this namespace was started by us (the namespace is ours).
    local pids
    pids="$(ip netns pids "$ns" 2>/dev/null || true)"
    if [[ -n "$pids" ]]; then
      # shellcheck disable=SC2086
      kill -TERM $pids 2>/dev/null || true
      for _ in $(seq 1 50); do
        [[ -z "$(ip netns pids "$ns" 2>/dev/null || true)" ]] && break
        sleep 0.1 # bounded wait for processes to exit after SIGTERM
      done
      pids="$(ip netns pids "$ns" 2>/dev/null || true)"
      # shellcheck disable=SC2086
      [[ -n "$pids" ]] && kill -KILL $pids 2>/dev/null || true
    fi
    ip netns del "$ns" || echo "sandbox: could not delete network namespace $ns; delete it with: ip netns del $ns" >&2
  fi
  local after
  after="$(fingerprint)"
  if [[ "$after" != "$before" ]]; then
    echo "SANDBOX LEAK: the real /etc/resolv.conf changed during the run" >&2
    echo "  before: $before" >&2
    echo "  after:  $after" >&2
    exit 70
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ip netns add "$ns"
ip netns exec "$ns" ip link set lo up

# inner.sh compares its mount namespace with ours and refuses to mount anything if equal.
export K2S_DNS_HOST_MNTNS="$(readlink /proc/self/ns/mnt)"

# In the background + `wait`: bash runs traps only after a foreground child ends, but `wait`
# returns at once on a signal, so Ctrl-C / SIGTERM reach cleanup while CMD still runs.
# Keep the terminal's stdin for CMD (a background job would otherwise get /dev/null).
status=0
ip netns exec "$ns" unshare -m --propagation private --pid --fork --mount-proc bash "$here/inner.sh" "$@" <&0 &
wait $! || status=$?
exit "$status"
