/**
 * What the k2s-dns package runs, as one table: each need with its Debian and its Fedora/RHEL
 * spelling. deb-control.ts and rpm-spec.ts render it; nothing else names a dependency.
 * `strength`: `requires` (Depends / Requires), `recommends` (Recommends, installed by default
 * by apt and dnf, removable).
 */
export interface Need {
  why: string;
  strength: 'requires' | 'recommends';
  /** null: nothing to declare on Debian (an Essential package, policy 3.5). */
  deb: string | null;
  /** One or more rpm dependency lines. */
  rpm: string[];
}

/** The table. */
export const NEEDS: readonly Need[] = [
  // Debian 13 ships nodejs 20.19.2; the bundles target Node 20 (scripts/build.mjs) and the
  // launchers run /usr/bin/node. Fedora's nodejs carries epoch 1.
  { why: 'runtime of the CLI and the helper', strength: 'requires', deb: 'nodejs (>= 20.19)', rpm: ['/usr/bin/node', 'nodejs >= 1:20.19'] },
  // The app elevates the helper with pkexec (its own package on Debian 12/13; polkitd does not
  // pull it in); polkitd answers the action. Fedora: both in polkit.
  { why: 'pkexec runs the helper', strength: 'requires', deb: 'pkexec', rpm: ['/usr/bin/pkexec'] },
  { why: 'polkitd answers io.k2s.dns.helper', strength: 'requires', deb: 'polkitd', rpm: ['polkit'] },
  // flock (the lifecycle lock), setpriv (the helper reads as the caller). util-linux is
  // Essential on Debian: depending on it is an error for lintian
  // (depends-on-essential-package-without-using-version).
  { why: 'flock, setpriv', strength: 'requires', deb: null, rpm: ['util-linux'] },
  // lsattr/chattr: the immutable and append-only checks of /etc/resolv.conf.
  { why: 'lsattr, chattr', strength: 'requires', deb: 'e2fsprogs', rpm: ['e2fsprogs'] },
  // The proxy engine on a host without K2s's AdGuard dnsproxy (<K2s dir>/bin/dnsproxy), which
  // no distribution packages: recommended, since a K2s host already has the other one.
  { why: 'the dnsmasq engine where K2s dnsproxy is absent', strength: 'recommends', deb: 'dnsmasq-base', rpm: ['dnsmasq'] },
  // The packet reader of the exact query log (electron/core/capture/): without it K2s DNS still
  // starts and the engine's own query log is the fallback, so a weak dependency.
  { why: 'tcpdump reads the exact query log from packets', strength: 'recommends', deb: 'tcpdump', rpm: ['tcpdump'] },
];
