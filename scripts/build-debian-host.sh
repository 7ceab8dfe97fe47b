#!/usr/bin/env bash
# Builds the Debian 13 (trixie) root file system the e2e bed boots as a real systemd host
# (e2e/bed/debian-host.ts), once, under the git-ignored .tools/debian13/:
#   rootfs/    the root file system (debootstrap --variant=minbase, then apt-get in a chroot)
#   version    what was asked for (BED_VERSION + package list); a different request rebuilds
#   .complete  written last: setup skips the build when it exists and `version` matches
# Everything is installed into rootfs/ only; nothing on this machine is changed except that
# debootstrap itself is installed by scripts/setup.sh. Needs root and Debian's mirror.
# Usage: bash scripts/build-debian-host.sh [--force]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/step.sh
. scripts/lib/step.sh

out=.tools/debian13
rootfs="$out/rootfs"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# Bump when the recipe below changes in a way an existing rootfs lacks.
BED_VERSION=1
# debootstrap can configure these in its chroot (measured: polkitd and pkexec cannot, so they
# are the second step). systemd-resolved, libnss-resolve and network-manager are installed but
# masked per boot unless a test asks for them (debian-host.ts). tcpdump: the packet reader of the
# exact query log's capture companion (electron/core/capture/). The list is part of `want` below,
# so adding a package rebuilds a cached rootfs here and on CI's fresh machine alike.
include=systemd,systemd-sysv,dbus,iproute2,procps,util-linux,e2fsprogs,nodejs,dnsmasq-base,bind9-dnsutils,systemd-resolved,libnss-resolve,network-manager,logrotate,ca-certificates,tcpdump
second=(polkitd pkexec)
# Downloaded into the rootfs, not installed: tests that need them dpkg -i them on the host's disk.
offline=(resolvconf)
want="bed=$BED_VERSION suite=trixie include=$include second=${second[*]} offline=${offline[*]}"

if [ "${1:-}" != "--force" ] && [ -f "$out/.complete" ] && [ "$(cat "$out/version" 2>/dev/null)" = "$want" ]; then
  echo "setup: Debian 13 host root file system present ($out; delete it, or run bash scripts/build-debian-host.sh --force, to rebuild)"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "skipped: building the Debian 13 host root file system needs root (debootstrap)"
  exit 0
fi
if ! command -v debootstrap >/dev/null; then
  echo "setup: debootstrap is missing (scripts/setup.sh installs it)" >&2
  exit 1
fi

start=$(date +%s)
rm -rf "$out"
mkdir -p "$out"
tmp="$out/rootfs.partial"
# Both steps print one line; their output is in $out/debootstrap.log and $out/chroot.log.
# What a failed step's log tail holds besides the error (routine here, not the cause):
STEP_NOTE="routine in a chroot, not the error: 'E: Can not write log (Is /dev/pts mounted?)' (apt's terminal log; no /dev/pts there) and 'invoke-rc.d: policy-rc.d denied execution of …' (no service starts while building)"
step "$out/debootstrap.log" "setup: debootstrap Debian 13 (trixie, minbase; a few minutes)" \
  debootstrap --variant=minbase --include="$include" trixie "$tmp" "$mirror"
boot1=$(date +%s)

# Second step in a chroot, inside a private mount namespace so /proc and the binds vanish with
# it. policy-rc.d: no service starts in the chroot (Debian policy, invoke-rc.d). apt needs a
# resolver: the chroot's /etc/resolv.conf is this machine's, bound read-only for the step only.
printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
chmod 755 "$tmp/usr/sbin/policy-rc.d"
cat >"$tmp/root/bed-step2.sh" <<STEP
set -e
export DEBIAN_FRONTEND=noninteractive LC_ALL=C
apt-get update -qq
apt-get install -y -qq --no-install-recommends ${second[*]} >/dev/null
apt-get install -y -qq --no-install-recommends --download-only ${offline[*]} >/dev/null
mkdir -p /var/cache/k2s-bed/debs
for p in ${offline[*]}; do cp /var/cache/apt/archives/\${p}_*.deb /var/cache/k2s-bed/debs/; done
apt-get clean
rm -rf /var/lib/apt/lists/*
STEP
step "$out/chroot.log" "setup: installing ${second[*]} and downloading ${offline[*]} in its chroot" \
  unshare --mount --propagation private bash -euo pipefail -c '
  root="$1"
  mount -t proc proc "$root/proc"
  mount --bind /dev "$root/dev"
  if [ -L "$root/etc/resolv.conf" ] || [ ! -e "$root/etc/resolv.conf" ]; then
    saved="$(readlink "$root/etc/resolv.conf" || true)"; rm -f "$root/etc/resolv.conf"; : >"$root/etc/resolv.conf"
  fi
  mount --bind -o ro /etc/resolv.conf "$root/etc/resolv.conf"
  chroot "$root" /bin/sh /root/bed-step2.sh
  umount "$root/etc/resolv.conf"
  if [ -n "${saved:-}" ]; then rm -f "$root/etc/resolv.conf"; ln -s "$saved" "$root/etc/resolv.conf"; fi
' bash "$tmp"
rm -f "$tmp/usr/sbin/policy-rc.d" "$tmp/root/bed-step2.sh"

# A host of its own: name, an empty machine-id (systemd makes one at first boot, on the disk),
# K2s's binary folder, the mount point of the checkout, and NetworkManager never touching the
# bed's links when a test enables it (NetworkManager.conf(5): unmanaged-devices, no-auto-default).
echo k2s-host >"$tmp/etc/hostname"
: >"$tmp/etc/machine-id"
mkdir -p "$tmp/opt/k2s/bin" "$tmp/opt/k2s-dns-src"
: >"$tmp/opt/k2s/bin/dnsproxy"
chmod 755 "$tmp/opt/k2s/bin/dnsproxy"
mkdir -p "$tmp/etc/NetworkManager/conf.d"
printf '[main]\nno-auto-default=*\n\n[keyfile]\nunmanaged-devices=*\n' >"$tmp/etc/NetworkManager/conf.d/90-k2s-bed.conf"
chroot "$tmp" dpkg-query -W -f='${Package} ${Version}\n' systemd systemd-resolved nodejs dnsmasq-base network-manager polkitd pkexec logrotate tcpdump >"$out/packages.txt"
cat "$tmp/etc/debian_version" >"$out/debian_version"
mv "$tmp" "$rootfs"
echo "$want" >"$out/version"
end=$(date +%s)
echo "debootstrap=$((boot1 - start))s total=$((end - start))s size=$(du -sm "$rootfs" | cut -f1)MB" >"$out/build-time.txt"
touch "$out/.complete"
echo "setup: Debian $(cat "$out/debian_version") host root file system built in $((end - start)) s (debootstrap $((boot1 - start)) s): $(tr '\n' ' ' <"$out/packages.txt")"
