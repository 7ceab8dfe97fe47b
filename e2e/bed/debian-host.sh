#!/usr/bin/env bash
# Boots the Debian 13 root file system as a real systemd host (systemd as PID 1), in the
# CURRENT network namespace (the bed's: run it inside e2e/bed/sandbox.sh), in new PID, mount,
# UTS and cgroup namespaces, over an overlay whose upper layer is the host's "disk".
# Usage (as root): bash e2e/bed/debian-host.sh ROOTFS DISK REPO DNSPROXY CGROUP
#   ROOTFS    the read-only lower layer (.tools/debian13/rootfs; scripts/build-debian-host.sh)
#   DISK      a directory holding upper/ and work/ (kept across a reboot: the same disk)
#   REPO      this checkout, bound read-only at /opt/k2s-dns-src
#   DNSPROXY  K2s's dnsproxy binary, bound read-only at /opt/k2s/bin/dnsproxy ('' = none)
#   CGROUP    an empty cgroup2 directory made for this boot: the host's cgroup tree (systemd
#             delegates inside it, cgroup namespace rooted there)
# Prints "debian-host: exec systemd" right before PID 1 becomes systemd; its console output
# follows on stdout. Exit: what the PID namespace's init ended with (systemctl poweroff →
# SIGINT, reboot → SIGHUP, per reboot(2) in a PID namespace).
# Hardening (a booted host must not change this machine): /sys and /proc/sys read-only, a
# minimal /dev, CAP_SYS_MODULE, CAP_SYS_TIME, CAP_SYS_RAWIO dropped from the bounding set.
set -euo pipefail

[ $# -eq 5 ] || { echo "usage: debian-host.sh ROOTFS DISK REPO DNSPROXY CGROUP" >&2; exit 64; }
rootfs="$1" disk="$2" repo="$3" dnsproxy="$4" cgroup="$5"
[ -f "$rootfs/usr/lib/systemd/systemd" ] || { echo "debian-host: no systemd in $rootfs" >&2; exit 66; }
mkdir -p "$disk/upper" "$disk/work" "$disk/mnt"

# Into our own cgroup first: the new cgroup namespace is rooted at it.
echo $$ >"$cgroup/cgroup.procs"

exec unshare --pid --fork --mount --uts --cgroup --propagation private \
  bash -euo pipefail -s "$rootfs" "$disk" "$repo" "$dnsproxy" <<'INNER'
rootfs="$1" disk="$2" repo="$3" dnsproxy="$4"
m="$disk/mnt"
mount -t overlay overlay -o "lowerdir=$rootfs,upperdir=$disk/upper,workdir=$disk/work" "$m"

# /dev: a tmpfs with the usual nodes bound from this machine's (no block devices).
mount -t tmpfs -o mode=755,nosuid dev "$m/dev"
for n in null zero full random urandom tty; do
  : >"$m/dev/$n"
  mount --bind "/dev/$n" "$m/dev/$n"
done
mkdir -p "$m/dev/pts" "$m/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$m/dev/pts"
ln -s pts/ptmx "$m/dev/ptmx"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$m/dev/shm"
ln -s /proc/self/fd "$m/dev/fd"
ln -s /proc/self/fd/0 "$m/dev/stdin"
ln -s /proc/self/fd/1 "$m/dev/stdout"
ln -s /proc/self/fd/2 "$m/dev/stderr"

# /proc of the new PID namespace; its kernel knobs read-only.
mount -t proc -o nosuid,nodev,noexec proc "$m/proc"
for p in sys sysrq-trigger; do
  [ -e "$m/proc/$p" ] || continue
  mount --bind "$m/proc/$p" "$m/proc/$p"
  mount -o remount,bind,ro "$m/proc/$p"
done
# /sys read-only (this network namespace's view), with a writable cgroup2 rooted at our cgroup.
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$m/sys"
mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$m/sys/fs/cgroup"

mount -t tmpfs -o mode=755,nosuid,nodev run "$m/run"
mount -t tmpfs -o mode=1777,nosuid,nodev tmp "$m/tmp"
mount --bind -o ro "$repo" "$m/opt/k2s-dns-src"
if [ -n "$dnsproxy" ]; then
  mount --bind -o ro "$dnsproxy" "$m/opt/k2s/bin/dnsproxy"
fi

hostname k2s-host
# /etc/hosts as Debian's installer writes it (netcfg; debootstrap writes none): a real K2s host has
# one, and without it nss-files answers nothing, so `localhost` and every name go to nss dns.
# On the disk (the overlay's upper layer): written at the first boot, kept across reboots.
[ -e "$m/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n127.0.1.1\tk2s-host\n\n# The following lines are desirable for IPv6 capable hosts\n::1     localhost ip6-localhost ip6-loopback\nff02::1 ip6-allnodes\nff02::2 ip6-allrouters\n' >"$m/etc/hosts"
mkdir -p "$m/run/k2s-bed/oldroot"
cd "$m"
pivot_root . run/k2s-bed/oldroot
cd /
umount -l /run/k2s-bed/oldroot
rmdir /run/k2s-bed/oldroot

export container=other
echo "debian-host: exec systemd"
# Bounding set without the three capabilities; no inheritable/ambient ones (capabilities(7)).
exec setpriv --inh-caps=-all --bounding-set=-sys_module,-sys_time,-sys_rawio -- /usr/lib/systemd/systemd --system --log-target=console --show-status=no </dev/null
INNER
