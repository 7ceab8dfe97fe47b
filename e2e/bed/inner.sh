#!/usr/bin/env bash
# Second half of sandbox.sh, run inside the new network + mount namespace (never run it
# directly: it mounts over /etc, /run, /var/lib, /var/log and /opt of the current mount
# namespace and refuses to do so unless that namespace is private and has no route out).
# Usage (by sandbox.sh): ip netns exec NS unshare -m --propagation private --pid --fork --mount-proc bash inner.sh CMD...
# It runs as PID 1 of the sandbox's PID namespace: CMD runs as its child (not exec'd), so the
# cleanup below still runs after CMD, and the namespace's leftovers end when this script does.
set -euo pipefail

if [[ "$(id -u)" -ne 0 ]]; then
  echo "inner.sh: must run as root inside the sandbox made by sandbox.sh" >&2
  exit 77
fi

# Refuse before any mount: a default route would mean we are not in the sandbox's namespace.
if [[ -n "$(ip route show default)" || -n "$(ip -6 route show default 2>/dev/null)" ]]; then
  echo "inner.sh: this network namespace has a default route; run through e2e/bed/sandbox.sh, which makes an isolated one" >&2
  exit 78
fi
# Refuse when the mount namespace is the host's: our mounts would hit the real /etc.
# (/proc/1 may be invisible in a container, so sandbox.sh hands over its own namespace id.)
if [[ -z "${K2S_DNS_HOST_MNTNS:-}" || "$(readlink /proc/self/ns/mnt)" == "$K2S_DNS_HOST_MNTNS" ]]; then
  echo "inner.sh: not in a private mount namespace; run through e2e/bed/sandbox.sh" >&2
  exit 78
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/k2sdns-sandbox.XXXXXX")"
cleanup() {
  # Unmount first so rm only sees our copy (the bind mount points at the same directory).
  umount /etc 2>/dev/null || true
  rm -rf -- "$tmp"
}
trap cleanup EXIT

# A private copy of the whole /etc: bind-mounting only resolv.conf would make rename() and
# symlink replacement fail with EBUSY, and the lifecycle replaces the file by rename.
cp -a /etc "$tmp/etc"
# Without the host's /etc/kubernetes: on a K2s host its admin.conf is the real cluster's, and the
# CLI's kubeconfig lookup (README) tries /etc/kubernetes/admin.conf before $KUBECONFIG, the
# sandbox's (walk 18 H1). Only the copy loses it; the real /etc is never touched.
rm -rf -- "$tmp/etc/kubernetes"
# `ip netns exec` or the container may have bind-mounted files (resolv.conf, hosts) over
# /etc; cp copied their contents, and the plain bind below does not carry those submounts.
mount --bind "$tmp/etc" /etc

# glibc must ask the nameservers in resolv.conf (the copy may say `resolve` or `mdns4`).
if grep -q '^hosts:' /etc/nsswitch.conf 2>/dev/null; then
  sed -i 's/^hosts:.*/hosts:          files dns/' /etc/nsswitch.conf
else
  printf 'hosts:          files dns\n' >>/etc/nsswitch.conf
fi

# State dir (/var/lib/k2s), log (/var/log/dnsproxy), pidfiles and /run/systemd/resolve
# links, and the K2s install dir (/opt/k2s) all live in the sandbox.
for d in /run /var/lib /var/log /opt; do
  mkdir -p "$d"
  mount -t tmpfs -o mode=0755 tmpfs "$d"
done
# root's V8 code cache (electron/core/compile-cache/cache-dir.ts) too: a run starts cold and
# leaves nothing behind (only the empty mount point /var/cache/k2s-dns on the machine).
mkdir -p /var/cache/k2s-dns
mount -t tmpfs -o mode=0700 tmpfs /var/cache/k2s-dns

export K2S_DNS_SANDBOX=1

status=0
"$@" || status=$?
exit "$status"
