/**
 * resolv.conf(5) parsing (as lenient as glibc's res_init) and the K2s-owned resolv.conf.
 * Pure logic: the caller reads and writes the bytes through a HostFs.
 */
import { isIpAddress } from './cidr';
import { inetAton } from './inet-aton';
import { MANAGED_HEADER, MANAGED_NOTE } from './k2s-paths';
import type { ResolvConf } from './types';

/**
 * glibc uses at most this many nameservers of resolv.conf (resolv.conf(5): "Up to MAXNS
 * (currently 3, see <resolv.h>) name servers may be listed"; glibc 2.41 resolv/resolv_conf.c
 * update_from_conf cuts the list to MAXNS). Later lines are never asked.
 */
export const GLIBC_MAXNS = 3;

/** Splits a directive's value into tokens, stopping at a `#` or `;` comment token. */
function valueTokens(rest: string): string[] {
  const out: string[] = [];
  for (const tok of rest.split(/[ \t]+/)) {
    if (tok === '') continue;
    // A comment starts a token: glibc stops at the first non-value; `search a #x` has no `#x` domain.
    if (tok.startsWith('#') || tok.startsWith(';')) break;
    out.push(tok);
  }
  return out;
}

/**
 * Parses resolv.conf text. Rules (resolv.conf(5), glibc res_init.c): LF or CRLF lines; `#` or
 * `;` in column one start a comment, and a token starting with one ends the values; keyword and
 * value are separated by spaces or tabs; `domain` and `search` replace each other (the last one
 * wins); `search .` means no search domains. Every `nameserver` is kept in file order, also
 * past glibc's MAXNS of 3 (GLIBC_MAXNS: the upstream pick and doctor apply it and name what
 * they leave out). An IPv4 nameserver is read as inet_aton(3) reads it (shared/inet-aton.ts:
 * `nameserver 127.2` is 127.0.0.2) and kept as a dotted quad. A `nameserver` whose
 * first whitespace-delimited value is not exactly an IP (`1.2.3.4;x` is not) (IPv6 `%zone` allowed), an indented line (glibc reads directives
 * only from column one) and any unknown directive land in `unknown`.
 */
export function parseResolvConf(text: string): ResolvConf {
  const conf: ResolvConf = { nameservers: [], search: [], options: [], sortlist: [], unknown: [] };
  for (const rawLine of text.split('\n')) {
    const untrimmed = rawLine.replace(/\r$/, '');
    const line = untrimmed.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    // glibc's MATCH needs the keyword in column one: an indented line is never a directive, so
    // its nameserver was never used by the host (found by a property test against res_init).
    if (/^\s/.test(untrimmed)) {
      conf.unknown.push(line);
      continue;
    }
    const m = /^(\S+)(?:[ \t]+(.*))?$/.exec(line);
    const keyword = m?.[1] ?? '';
    const values = valueTokens(m?.[2] ?? '');
    switch (keyword) {
      case 'nameserver': {
        // glibc 2.36 resolv/res_init.c (res_vinit_1): the value ends at the first space, tab or
        // newline (strpbrk " \t\n"), then the whole token must be an address (__inet_aton_exact,
        // inet_pton for IPv6): `1.2.3.4;x` and `1.2.3.4#x` are no nameserver, `1.2.3.4 ;x` is 1.2.3.4.
        const ns = values[0];
        // IPv4 first, as res_init does: `__inet_aton_exact (cp, &a)` takes inet_aton(3)'s short
        // and C-number forms (`127.2`, `0x7f000002`, `0177.0.0.2` are all 127.0.0.2); kept as
        // the dotted quad glibc asks. Then IPv6 (inet_pton, `%zone` allowed).
        const v4 = ns === undefined ? null : inetAton(ns);
        if (v4 !== null) conf.nameservers.push(v4);
        else if (ns !== undefined && ns.includes(':') && isIpAddress(ns)) conf.nameservers.push(ns);
        else conf.unknown.push(line);
        break;
      }
      case 'domain':
        // `domain` takes one name; like `search` it resets the list (last one wins).
        conf.search = values.slice(0, 1).filter((d) => d !== '.');
        break;
      case 'search':
        conf.search = values.filter((d) => d !== '.');
        break;
      case 'options':
        conf.options.push(...values);
        break;
      case 'sortlist':
        conf.sortlist.push(...values);
        break;
      default:
        conf.unknown.push(line);
    }
  }
  return conf;
}

// Allowed characters in a search domain or option token written to the K2s-owned file: no
// whitespace, no comment characters, nothing that could start a second directive.
const SEARCH_RE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/;
// An option value is kept as written (`timeout:2.5`: glibc reads 2, and so does the proxy).
const OPTION_RE = /^[A-Za-z0-9_-]+(:[0-9A-Za-z.+-]+)?$/;

/**
 * Splits search domains and options into those renderManagedResolvConf can write and those it
 * cannot (e.g. a non-ASCII `exämple.test`), so start can drop and name them instead of failing.
 */
export function writableResolverTokens(opts: { search: string[]; options: string[] }): { search: string[]; options: string[]; dropped: string[] } {
  const search = opts.search.filter((d) => SEARCH_RE.test(d));
  const options = opts.options.filter((o) => OPTION_RE.test(o));
  const dropped = [...opts.search.filter((d) => !SEARCH_RE.test(d)).map((d) => `search domain "${d}"`), ...opts.options.filter((o) => !OPTION_RE.test(o)).map((o) => `option "${o}"`)];
  return { search, options, dropped };
}

/**
 * Renders the K2s-owned /etc/resolv.conf: MANAGED_HEADER, MANAGED_NOTE, `nameserver 127.0.0.1` (or
 * `nameserver` given: on systemd-resolved hosts, shared/resolved-link.ts
 * managedNameserverOnResolvedHost), then the original search domains and options, LF endings
 * and a final newline.
 *
 * The search domains are kept so short names (`myhost` → `myhost.corp.example.com`) resolve
 * as before. Every original option is kept in order: all of glibc's options act on the client
 * side (ndots, timeout, attempts, edns0, trust-ad, rotate, single-request, use-vc, no-aaaa…)
 * and none changes which server is asked, so none breaks the loopback proxy; `use-vc` only
 * forces TCP, which both engines serve. Duplicates are dropped.
 * Throws when a search domain or option holds characters a resolv.conf token cannot hold.
 */
export function renderManagedResolvConf(opts: { search: string[]; options: string[]; nameserver?: string }): string {
  for (const d of opts.search) {
    if (!SEARCH_RE.test(d)) {
      throw new Error(`Search domain "${d}" is not a valid domain name; remove it from the original resolv.conf.`);
    }
  }
  for (const o of opts.options) {
    if (!OPTION_RE.test(o)) {
      throw new Error(`resolv.conf option "${o}" is not a valid option token; remove it from the original resolv.conf.`);
    }
  }
  const nameserver = opts.nameserver ?? '127.0.0.1';
  if (!/^[0-9a-fA-F:.]+$/.test(nameserver)) throw new Error(`Nameserver "${nameserver}" is not an IP address.`);
  const lines = [MANAGED_HEADER, MANAGED_NOTE, `nameserver ${nameserver}`];
  const search = [...new Set(opts.search)];
  const options = [...new Set(opts.options)];
  if (search.length > 0) lines.push(`search ${search.join(' ')}`);
  if (options.length > 0) lines.push(`options ${options.join(' ')}`);
  return `${lines.join('\n')}\n`;
}
