/**
 * status's note for a user who cannot read root's saved state while K2s DNS runs, and the CLI's
 * mark on the listeners and upstreams it read from the running proxy's config instead
 * (HostDnsStatus.configFacts, shared/proxy-config-facts.ts: the config is 0644 in /etc/k2s).
 * New user: the CLI said listeners and upstreams were not shown although the window and --json
 * showed them from that file. Pure.
 */
import { K2S_PATHS } from './k2s-paths';
import type { HostDnsStatus } from './types';

/**
 * `…dns-resolver-state.json is readable by root only, so its details (saved original, listeners,
 * upstreams) are not shown; WAY` — the details named are those `facts` (configFacts, null: none
 * read) does not give; when it gives some, a last sentence says which are read from its file.
 * `way`: the front end's (the CLI's `they are shown as root: …`, the window's Start/Stop words).
 */
export function stateUnreadableNote(facts: HostDnsStatus['configFacts'] | null, way: string): string {
  const read = facts ? [facts.listeners.length > 0 ? 'listeners' : null, facts.upstreams.length > 0 ? 'upstreams' : null].filter((w): w is string => w !== null) : [];
  const hidden = ['saved original', ...['listeners', 'upstreams'].filter((w) => !read.includes(w))];
  const from = read.length === 0 ? '' : ` The ${read.join(' and ')} shown are read from the running proxy's config ${facts!.file} (readable by all).`;
  return `${K2S_PATHS.stateFile} is readable by root only, so its details (${hidden.join(', ')}) are not shown; ${way}${from}`;
}

/** The CLI's mark after listeners or upstreams read from the proxy's config `file` (as the window's Host DNS card marks them). */
export function fromConfigMark(file: string): string {
  return ` (read from the proxy's config ${file}; the saved state is root-only)`;
}
