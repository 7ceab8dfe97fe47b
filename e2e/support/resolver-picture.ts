/**
 * The host resolver of a booted Debian host as the systemd-resolved suites compare it before
 * start and after stop: /etc/resolv.conf, `resolvectl status` and resolved's uplink file
 * (/run/systemd/resolve/resolv.conf), after one external lookup.
 */
import type { DebianHost } from '../bed/debian-host';
import { hostResolver } from '../bed/debian-host-cli';

/**
 * `resolvectl status` comparable across boots and a re-created link: LLMNR/mDNS IPv6 scopes
 * dropped (they follow IPv6 DAD, which finishes seconds after boot, not DNS state), `Link N`
 * numbers dropped (the kernel numbers a re-created link anew) and the link blocks sorted by name.
 */
export function comparableResolvectlStatus(text: string): string {
  const blocks = text.replace(/ (LLMNR|mDNS)\/IPv6/g, '').split(/\n(?=\S)/);
  const [global, ...links] = blocks;
  return [global, ...links.map((b) => b.replace(/^Link \d+ /, 'Link ')).sort()].join('\n');
}

/** The picture: each part as text, `status` through comparableResolvectlStatus. */
export async function resolverPicture(h: DebianHost): Promise<{ etc: string; status: string; uplink: string }> {
  await h.run(['getent', 'hosts', 'www.example.test'], { timeoutMs: 20_000 });
  return {
    etc: await hostResolver(h),
    status: comparableResolvectlStatus((await h.run(['resolvectl', 'status', '--no-pager'])).stdout),
    uplink: (await h.run(['cat', '/run/systemd/resolve/resolv.conf'])).stdout,
  };
}
