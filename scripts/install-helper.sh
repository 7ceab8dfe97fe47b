#!/usr/bin/env bash
# Installs the privileged helper from a checkout, once, as root: the same files and modes as the
# package's postinst (/usr/lib/k2s-dns/k2s-dns-helper + k2s-dns-helper.mjs, root-owned, and the
# polkit action). The app never elevates the checkout itself (user-writable); after this its
# Start/Stop/Uninstall run the root-owned copy through pkexec. Rerun after `npm run build` to
# update it; `sudo DESTDIR= sh resources/packaging/prerm` removes it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
  echo "install-helper: run as root: sudo bash scripts/install-helper.sh (after npm run build as yourself)" >&2
  exit 3
fi
if [ ! -f dist/k2s-dns-helper.mjs ]; then
  echo "install-helper: dist/k2s-dns-helper.mjs is missing: run npm run build first" >&2
  exit 1
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# The package's resources/ layout (forge.config.ts extraResource: copied by base name).
cp dist/k2s-dns-helper.mjs dist/k2s-dns-helper.mjs.map resources/packaging/k2s-dns-helper resources/io.k2s.dns.policy "$stage/"
K2S_DNS_RESOURCES="$stage" sh resources/packaging/postinst configure
echo "install-helper: installed /usr/lib/k2s-dns/k2s-dns-helper and /usr/share/polkit-1/actions/io.k2s.dns.policy"
