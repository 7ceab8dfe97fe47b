#!/usr/bin/env bash
# One-time setup on Debian/Ubuntu: the Debian packages the app and its tests use, then the npm
# packages (exact versions from package-lock.json). Debian packages need root; without root
# this only lists what is missing.
# Each phase prints one line (`setup: … done (N s)`), the slow ones with an estimate; its output
# goes to a log under the git-ignored .tools/ (.tools/logs/, .tools/debian13/), whose tail and path
# are printed if it fails. The last line is the total: `setup: done in N min`.
# Usage: bash scripts/setup.sh [--no-debian-host]
#   --no-debian-host: skip the Debian 13 root file system (scripts/build-debian-host.sh), which only
#   `npm run try-package` and the e2e tests that boot a systemd host use (not `npm run sandbox`).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/step.sh
. scripts/lib/step.sh
usage() {
  echo "usage: bash scripts/setup.sh [--no-debian-host]"
  echo "  --no-debian-host: skip the Debian 13 root file system, which only npm run try-package"
  echo "  and the e2e tests that boot a systemd host use (not npm run sandbox)"
}
debian_host=1
for arg in "$@"; do
  case "$arg" in
    --no-debian-host) debian_host=0 ;;
    # Asked for: on stdout, exit 0 (a bad flag below: on stderr, exit 64, sysexits.h EX_USAGE).
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      exit 64
      ;;
  esac
done
setup_start=$SECONDS

# dnsmasq-base: the proxy engine on hosts without K2s's dnsproxy, and the test bed's DNS servers.
# chromium: the UI tests. bind9-dnsutils: dig. systemd: systemd-analyze verify of the unit.
# iproute2/util-linux/e2fsprogs/procps: ip netns, unshare, lsattr, ps. debootstrap: the Debian 13
# root file system the bed boots as a real systemd host (scripts/build-debian-host.sh; everything
# it installs stays inside that root file system). rpm: rpmbuild for `npm run package` (dpkg-deb
# comes with dpkg). tcpdump: the packet reader of the exact query log (electron/core/capture/;
# its e2e test and `npm run bench:capture`). lintian: e2e/package-install checks the .deb with it.
# dnsperf: the query log's e2e test of kernel drops under load, and `npm run bench`.
packages=(dnsmasq-base bind9-dnsutils chromium iproute2 util-linux e2fsprogs procps systemd debootstrap rpm tcpdump lintian dnsperf)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then
    apt_install() {
      apt-get update
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
    }
    STEP_NOTE="routine, not the error: 'E: Can not write log (Is /dev/pts mounted?)' (apt's terminal log, in a container without /dev/pts)" \
      step .tools/logs/apt.log "setup: installing Debian packages ${missing[*]}" apt_install "${missing[@]}"
  else
    echo "setup: missing Debian packages: ${missing[*]} — run: sudo apt-get install ${missing[*]}"
  fi
fi
# The app's Start/Stop/Uninstall elevate with pkexec (its own package on Debian 12/13; the tests
# do not need it on this machine, so it is only named).
[ -x /usr/bin/pkexec ] || echo "setup: note: only on a real K2s host (not for the sandbox or the tests): the app's Start needs pkexec for a non-root user: sudo apt-get install pkexec"
# npm ci deletes and reinstalls node_modules (~1 min); skipped when the tree was installed from
# this exact package-lock.json (its hash is kept inside node_modules, which a clean clone lacks).
lock_sha="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -f node_modules/.k2s-dns-lock.sha256 ] && [ "$(cat node_modules/.k2s-dns-lock.sha256)" = "$lock_sha" ]; then
  echo "setup: node_modules matches package-lock.json (npm ci skipped; delete node_modules to force it)"
else
  step .tools/logs/npm-ci.log "setup: installing the npm packages (npm ci; about a minute)" npm ci --no-audit --no-fund
  echo "$lock_sha" > node_modules/.k2s-dns-lock.sha256
fi

# The real DNS engines for the e2e test bed (AdGuard dnsproxy, CoreDNS), built with Go.
bash scripts/build-engines.sh

# The Debian 13 host the e2e bed boots (systemd as PID 1 in namespaces), cached in .tools/debian13.
# Without Debian's mirror it cannot be built: its e2e tests then print `skipped: why`.
if ((debian_host)); then
  bash scripts/build-debian-host.sh || echo "setup: the Debian 13 host root file system was not built (its log is named above); its e2e tests will say skipped"
else
  echo "setup: Debian 13 host root file system skipped (--no-debian-host): npm run try-package and the e2e tests that boot it will say skipped"
fi

# What users run: the bundled CLI, helper and Electron main (esbuild), the renderer and preload.
step .tools/logs/build.log "setup: building the app (npm run build; a few seconds)" npm run build

# The total, in whole minutes from one on (a phase line gives seconds).
took=$((SECONDS - setup_start))
if ((took < 60)); then
  echo "setup: done in $took s"
else
  echo "setup: done in $(((took + 30) / 60)) min"
fi
