/**
 * Doctor check `dnsproxy-version`: K2s pins AdGuard dnsproxy (PINNED_DNSPROXY_VERSIONS); other
 * versions differ in config keys and in private-rdns handling (DESIGN.md: the v0.68 PTR trap).
 */
import type { DoctorFinding } from '../../shared/doctor';
import { K2S_DEFAULTS, PINNED_DNSPROXY_VERSIONS } from '../../shared/k2s-paths';
import { DEFAULT_DNSMASQ } from '../lifecycle/engine';
import type { DoctorContext } from './context';

/** The `X.Y.Z` version in `dnsproxy --version` output (`dnsproxy version: v0.84.0` or `0.73.2`), or null. */
export function parseDnsproxyVersion(stdout: string): string | null {
  const m = /\bv?(\d+)\.(\d+)(?:\.(\d+))?\b/.exec(stdout);
  return m ? `${m[1]}.${m[2]}${m[3] !== undefined ? `.${m[3]}` : ''}` : null;
}

/** True when `version` (`0.84.1`) is one of PINNED_DNSPROXY_VERSIONS (major.minor). */
export function isPinnedDnsproxy(version: string): boolean {
  const minor = version.split('.').slice(0, 2).join('.');
  return (PINNED_DNSPROXY_VERSIONS as readonly string[]).includes(minor);
}

/**
 * `dnsproxy-version`: runs `<binary> --version` through deps.exec; ok for a pinned version, warn
 * for another or an unreadable one, info when absent and dnsmasq will be used, error when neither exists.
 */
export async function checkDnsproxyVersion(ctx: DoctorContext): Promise<DoctorFinding> {
  // Each finding's title states its own case (not the hoped-for one): a user reads the title first.
  const base = { id: 'dnsproxy-version' };
  const { fs, exec } = ctx.deps;
  const binary = ctx.opts.dnsproxyPath ?? `${ctx.opts.installDir ?? K2S_DEFAULTS.installDir}/bin/dnsproxy`;
  const pinned = PINNED_DNSPROXY_VERSIONS.map((v) => `v${v}`).join(' or ');
  const st = await fs.stat(binary);
  if (st === null || st.kind !== 'file' || (st.mode & 0o111) === 0) {
    const dnsmasq = await fs.stat(DEFAULT_DNSMASQ);
    if (dnsmasq !== null && (dnsmasq.mode & 0o111) !== 0) {
      return { ...base, severity: 'info', title: 'AdGuard dnsproxy not installed; the dnsmasq engine will be used', meaning: `No AdGuard dnsproxy at ${binary}: the dnsmasq engine will be used (${DEFAULT_DNSMASQ}).`, fix: null, detail: { binary, engine: 'dnsmasq' } };
    }
    return {
      ...base,
      severity: 'error',
      title: 'No DNS engine installed (neither AdGuard dnsproxy nor dnsmasq)',
      meaning: `Neither AdGuard dnsproxy (${binary}) nor dnsmasq (${DEFAULT_DNSMASQ}) is installed, so start refuses with NO_ENGINE.`,
      fix: 'Install K2s (it ships bin/dnsproxy) or run `apt-get install dnsmasq-base`.',
      detail: { binary, engine: null },
    };
  }
  const r = await exec.run(fs.real(binary), ['--version'], { timeoutMs: 5000 }).catch((err: unknown) => ({ code: null, stdout: '', stderr: (err as Error).message }));
  const version = r.code === 0 ? parseDnsproxyVersion(r.stdout + r.stderr) : null;
  if (version === null) {
    return {
      ...base,
      severity: 'warn',
      title: 'AdGuard dnsproxy version unreadable',
      meaning: `${binary} --version gave no version (${(r.stderr || r.stdout).trim() || `exit ${r.code}`}), so it may not be AdGuard dnsproxy and start may fail.`,
      fix: `Replace ${binary} with the dnsproxy K2s ships (${pinned}), or use --engine dnsmasq.`,
      detail: { binary, exitCode: r.code },
    };
  }
  if (isPinnedDnsproxy(version)) {
    return { ...base, severity: 'ok', title: `AdGuard dnsproxy v${version} is a pinned version`, meaning: `${binary} is dnsproxy v${version}, a version K2s pins.`, fix: null, detail: { binary, version } };
  }
  return {
    ...base,
    severity: 'warn',
    title: `AdGuard dnsproxy v${version} is not a pinned version`,
    meaning: `${binary} is dnsproxy v${version}, not the ${pinned} K2s pins, so config keys and private reverse-zone (PTR) handling may differ from what K2s DNS writes.`,
    fix: `Install the dnsproxy K2s ships (${pinned}) at ${binary}, pass --dnsproxy PATH to one, or use --engine dnsmasq.`,
    detail: { binary, version, pinned: [...PINNED_DNSPROXY_VERSIONS] },
  };
}
