/**
 * Doctor check `dnsproxy-version`: K2s pins AdGuard dnsproxy v0.83.1 (docs/engines.md "dnsproxy version"); other
 * versions differ in config keys and in private-rdns handling (docs/engines.md "Private PTR").
 * The binary is found as start finds it (electron/core/lifecycle/engine.ts chooseEngine), and while
 * the adguard engine runs, it is the running proxy's own executable (/proc/PID/exe).
 */
import { cliCommand } from '../../../shared/fix';
import type { DoctorFinding } from '../../../shared/doctor';
import { PINNED_DNSPROXY_VERSIONS } from '../../../shared/k2s-paths';
import { chooseEngine, DEFAULT_DNSMASQ } from '../lifecycle/engine';
import type { DoctorContext } from './context';
import { codeSpan } from '../../../shared/code-span';
import { askEngineVersion, runningExecutable } from '../host/engine-version';

/** The exact dnsproxy release K2s ships (`dnsproxy --version` prints `dnsproxy version v0.83.1`; docs/engines.md "dnsproxy version"). */
export const K2S_PINNED_DNSPROXY = '0.83.1';

/**
 * The AdGuard dnsproxy binary to report, as a host path: the running proxy's executable when
 * K2s DNS runs the adguard engine and that file is still the one it runs (runningExecutable,
 * /proc/PID/exe: it may have been started with `--dnsproxy PATH`), else what start would pick
 * (chooseEngine with engine adguard: `dnsproxyPath`, else the running proxy's path when a new file
 * replaced it there, else `<installDir>/bin/dnsproxy`). `installed` is false when start would
 * refuse it (absent or not executable). Never throws.
 */
export async function locateDnsproxy(ctx: DoctorContext): Promise<{ binary: string; installed: boolean; running: boolean }> {
  const { fs } = ctx.deps;
  const exe = ctx.service.running && ctx.service.pid !== null && ctx.state?.engine === 'adguard' ? await runningExecutable(fs, ctx.service.pid) : null;
  if (exe && exe.change === null) return { binary: exe.path, installed: true, running: true };
  // Replaced since the proxy started: the file there now is what a start runs, not the running one.
  const dnsproxyPath = ctx.opts.dnsproxyPath ?? (exe?.change === 'replaced' ? exe.path : undefined);
  const opts = { engine: 'adguard' as const, ...(dnsproxyPath ? { dnsproxyPath } : {}), ...(ctx.opts.installDir ? { installDir: ctx.opts.installDir } : {}) };
  try {
    return { binary: (await chooseEngine(fs, opts)).binary, installed: true, running: false };
  } catch {
    // Refused: the path start looked at, for the message.
    return { binary: dnsproxyPath ?? `${ctx.opts.installDir ?? '/opt/k2s'}/bin/dnsproxy`, installed: false, running: false };
  }
}

/** True when `version` (`0.84.1`) is one of PINNED_DNSPROXY_VERSIONS (major.minor): K2s DNS's config works with it. */
export function isPinnedDnsproxy(version: string): boolean {
  const minor = version.split('.').slice(0, 2).join('.');
  return (PINNED_DNSPROXY_VERSIONS as readonly string[]).includes(minor);
}

/**
 * `dnsproxy-version`: asks `<binary> --version` as status does (askEngineVersion; binary: locateDnsproxy); ok
 * for exactly v0.83.1, warn for another or an unreadable one, info when absent and dnsmasq will
 * be used, error when neither exists. The finding quotes the `--version` line in `detail.output`.
 */
export async function checkDnsproxyVersion(ctx: DoctorContext): Promise<DoctorFinding> {
  // Each finding's title states its own case (not the hoped-for one): a user reads the title first.
  const base = { id: 'dnsproxy-version' };
  const { fs, exec } = ctx.deps;
  const { binary, installed, running } = await locateDnsproxy(ctx);
  const pinned = `v${K2S_PINNED_DNSPROXY}`;
  const where = running ? `${binary} (the running k2s-dnsproxy)` : binary;
  if (!installed) {
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
  // The version as status asks it (askEngineVersion), without its `v`: `0.83.1`.
  const r = await askEngineVersion(exec, 'adguard', fs.real(binary), null);
  const output = r.line;
  const version = r.version?.replace(/^v/, '') ?? null;
  if (version === null) {
    return {
      ...base,
      severity: 'warn',
      title: 'AdGuard dnsproxy version unreadable',
      meaning: `${where} --version gave no version (${r.line || (r.code === null ? (r.unknown ?? '').replace(`${fs.real(binary)} --version `, '') : `exit ${r.code}`)}), so it may not be AdGuard dnsproxy and start may fail.`,
      fix: `Replace ${binary} with the dnsproxy K2s ships (${pinned}), or start with ${codeSpan(cliCommand('start --engine dnsmasq', true))}.`,
      remedy: { action: 'choose-dnsmasq', gui: `Replace ${binary} with the dnsproxy K2s ships (${pinned}), or choose dnsmasq in the Engine select.`, cli: cliCommand('start --engine dnsmasq', true) },
      detail: { binary, running, exitCode: r.code },
    };
  }
  if (version === K2S_PINNED_DNSPROXY) {
    return { ...base, severity: 'ok', title: `AdGuard dnsproxy v${version}, the version K2s pins`, meaning: `${where} --version prints "${output}": the dnsproxy K2s ships.`, fix: null, detail: { binary, running, version, output } };
  }
  return {
    ...base,
    severity: 'warn',
    title: `AdGuard dnsproxy v${version} is not the ${pinned} K2s pins`,
    meaning: `${where} --version prints "${output}", not the ${pinned} K2s pins, so ${isPinnedDnsproxy(version) ? 'it is tested with K2s DNS\'s config, but its behaviour is not what K2s ships' : 'config keys and private reverse-zone (PTR) handling may differ from what K2s DNS writes'}.`,
    fix: `Install the dnsproxy K2s ships (${pinned}) at ${binary}, or start with ${codeSpan(cliCommand('start --dnsproxy PATH', true))} (a v0.83.1 binary) or ${codeSpan(cliCommand('start --engine dnsmasq', true))}.`,
    remedy: { action: 'choose-dnsmasq', gui: `Install the dnsproxy K2s ships (${pinned}) at ${binary}, or choose dnsmasq in the Engine select.`, cli: `${cliCommand('start --dnsproxy PATH', true)}, or ${cliCommand('start --engine dnsmasq', true)}` },
    detail: { binary, running, version, output, pinned: K2S_PINNED_DNSPROXY },
  };
}
