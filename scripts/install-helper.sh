#!/usr/bin/env bash
# Installs the privileged helper from a checkout, once, as root: the same four files, modes and
# owner as the k2s-dns package ships (scripts/package/layout.ts; unit-tested to match):
# /usr/lib/k2s-dns/k2s-dns-helper (+ k2s-dns-helper.mjs and its map), root-owned, and the polkit
# action. The app never elevates the checkout itself (user-writable); after this its
# Start/Stop/Uninstall run the root-owned copy through pkexec. Rerun after `npm run build` to
# update it; `sudo bash scripts/install-helper.sh --remove` removes it (never on a host where the
# k2s-dns package owns these files: dpkg or rpm does that).
set -euo pipefail
cd "$(dirname "$0")/.."
LIB=/usr/lib/k2s-dns
POLICY=/usr/share/polkit-1/actions/io.k2s.dns.policy
if [ "$(id -u)" != 0 ]; then
  echo "install-helper: run as root: sudo bash scripts/install-helper.sh (after npm run build as yourself)" >&2
  exit 3
fi
if dpkg-query -W -f='${Status}' k2s-dns 2>/dev/null | grep -q 'ok installed' || rpm -q k2s-dns >/dev/null 2>&1; then
  echo "install-helper: the k2s-dns package is installed and owns $LIB/k2s-dns-helper; upgrade the package instead" >&2
  exit 3
fi
if [ "${1:-}" = --remove ]; then
  rm -f "$LIB/k2s-dns-helper" "$LIB/k2s-dns-helper.mjs" "$LIB/k2s-dns-helper.mjs.map" "$POLICY"
  rmdir "$LIB" 2>/dev/null || true
  echo "install-helper: removed $LIB/k2s-dns-helper and $POLICY"
  exit 0
fi
if [ ! -f dist/k2s-dns-helper.mjs ]; then
  echo "install-helper: dist/k2s-dns-helper.mjs is missing: run npm run build first" >&2
  exit 1
fi
# pkexec is its own package on Debian 12/13 (polkitd does not pull it in): without it the app
# refuses with PKEXEC_MISSING; say so now.
if ! [ -x /usr/bin/pkexec ]; then
  echo "install-helper: note: /usr/bin/pkexec is missing; the app needs it: apt-get install pkexec" >&2
fi
install -d -m 0755 -o root -g root "$LIB"
install -m 0644 -o root -g root dist/k2s-dns-helper.mjs "$LIB/k2s-dns-helper.mjs"
install -m 0644 -o root -g root dist/k2s-dns-helper.mjs.map "$LIB/k2s-dns-helper.mjs.map"
install -m 0755 -o root -g root resources/packaging/k2s-dns-helper "$LIB/k2s-dns-helper"
install -D -m 0644 -o root -g root resources/io.k2s.dns.policy "$POLICY"
echo "install-helper: installed $LIB/k2s-dns-helper and $POLICY"
