/**
 * The real DNS engines the e2e tests run, built by scripts/build-engines.sh into the repo's
 * git-ignored .tools/bin at the versions pinned in tools/engines/versions.env.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (e2e/bed/ → ../..). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Paths of the built engines. */
export const ENGINE_BIN = {
  dnsproxy: join(REPO_ROOT, '.tools', 'bin', 'dnsproxy'),
  coredns: join(REPO_ROOT, '.tools', 'bin', 'coredns'),
} as const;

/** `KEY=VALUE` lines of tools/engines/versions.env (`#` comments skipped). */
export function pinnedVersions(text = readFileSync(join(REPO_ROOT, 'tools', 'engines', 'versions.env'), 'utf8')): {
  dnsproxy: string;
  coredns: string;
} {
  const env = Object.fromEntries(
    text
      .split('\n')
      .map((l) => /^\s*([A-Z_]+)=(\S+)/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
  if (!env.DNSPROXY_VERSION || !env.COREDNS_VERSION) throw new Error('tools/engines/versions.env must set DNSPROXY_VERSION and COREDNS_VERSION.');
  return { dnsproxy: env.DNSPROXY_VERSION, coredns: env.COREDNS_VERSION };
}

/** First stdout line of `binary flag`, or null when it cannot run. */
function firstLine(binary: string, flag: string): Promise<string | null> {
  return new Promise((res) => {
    execFile(binary, [flag], { timeout: 10_000 }, (err, stdout) => res(err ? null : (stdout.split('\n')[0] ?? '').trim()));
  });
}

/**
 * The version the built binary prints (`dnsproxy version v0.83.1` → `v0.83.1`;
 * `CoreDNS-1.12.4` → `v1.12.4`), or null when it is missing or does not run.
 */
export async function builtVersion(engine: keyof typeof ENGINE_BIN): Promise<string | null> {
  if (engine === 'dnsproxy') {
    const l = await firstLine(ENGINE_BIN.dnsproxy, '--version');
    const m = l && /^dnsproxy version (v\S+)$/.exec(l);
    return m ? m[1]! : null;
  }
  const l = await firstLine(ENGINE_BIN.coredns, '-version');
  const m = l && /^CoreDNS-(\S+)$/.exec(l);
  return m ? `v${m[1]}` : null;
}

/**
 * Why the pinned engine cannot run here (for a test's `skipped: <why>`), or null when the
 * built binary prints the pinned version.
 */
export async function engineMissing(engine: keyof typeof ENGINE_BIN): Promise<string | null> {
  const want = pinnedVersions()[engine];
  const have = await builtVersion(engine);
  if (have === want) return null;
  const what = engine === 'dnsproxy' ? `AdGuard dnsproxy ${want}` : `CoreDNS ${want}`;
  return have === null
    ? `${what} is not built in .tools/bin (run bash scripts/build-engines.sh; it needs Go)`
    : `.tools/bin/${engine} is ${have}, not ${want} (run bash scripts/build-engines.sh)`;
}

/** The proxy engines every lifecycle case runs with. */
export const PROXY_ENGINES = ['adguard', 'dnsmasq'] as const;
/** One of PROXY_ENGINES. */
export type ProxyEngine = (typeof PROXY_ENGINES)[number];

/**
 * `k2s-dns start` arguments that select `engine`: the real dnsproxy from .tools/bin for
 * `adguard` (`--dnsproxy PATH`), Debian's dnsmasq for `dnsmasq`.
 */
export function engineArgs(engine: ProxyEngine): string[] {
  return engine === 'adguard' ? ['--engine', 'adguard', '--dnsproxy', ENGINE_BIN.dnsproxy] : ['--engine', 'dnsmasq'];
}
