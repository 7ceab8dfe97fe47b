/**
 * The one engine table: every DNS proxy engine k2s-dns can run, by name, with what the contract,
 * the renderer and the log reader need to know of it. Node-side parts (config renderer, argv,
 * systemd unit user) are in electron/core/engines/table.ts, keyed by the same names; adding an
 * engine is one entry here, one there, plus its config renderer and its log lines' parser.
 *
 * Imports nothing (shared/ runs in the renderer too).
 */

/** What differs between engines where the renderer or the log reader must know it. */
export interface EngineCapabilities {
  /**
   * Resolution of the latency its query log gives: `ms` (dnsproxy's DEBUG records carry
   * microsecond times) or `s` (dnsmasq's syslog lines carry whole seconds, so a latency under
   * a second is unknown and shown as such).
   */
  latency: 'ms' | 's';
  /** True when it answers names from its own config and logs them as `config` (the `local` route). */
  localAnswers: boolean;
}

/** One engine's entry. */
export interface EngineInfo {
  /** Name shown to the user (Engine select, doctor, log run titles). */
  label: string;
  /**
   * How its lines are told apart in the shared log file: the syslog `process` field prefix it
   * writes (`dnsmasq[1234]`), or null for the engine whose own log format has no process field
   * (at most one such engine: lines without a matching process are its lines).
   */
  logProcess: string | null;
  /**
   * The version token in its binary's `--version` output, group 1: `dnsproxy version v0.83.1`
   * (AdGuard dnsproxy), `Dnsmasq version 2.90  Copyright …` (dnsmasq(8) --version).
   */
  versionPattern: RegExp;
  capabilities: EngineCapabilities;
}

/**
 * The engines, in the order Automatic tries them (the first whose binary exists is used): AdGuard
 * dnsproxy, pinned and shipped by K2s, then Debian's dnsmasq (dnsmasq-base).
 */
export const ENGINES = {
  adguard: { label: 'AdGuard dnsproxy', logProcess: null, versionPattern: /^dnsproxy version:? (v?\d+\.\d+(?:\.\d+)?)\b/m, capabilities: { latency: 'ms', localAnswers: false } },
  dnsmasq: { label: 'dnsmasq', logProcess: 'dnsmasq', versionPattern: /^Dnsmasq version (\S+)/m, capabilities: { latency: 's', localAnswers: true } },
} as const satisfies Record<string, EngineInfo>;

/** An engine's name: a key of ENGINES. */
export type EngineName = keyof typeof ENGINES;

/** Every engine name, in ENGINES order (Automatic's preference); a non-empty tuple for z.enum. */
export const ENGINE_NAMES = Object.keys(ENGINES) as [EngineName, ...EngineName[]];

/** True when `v` names an engine of the table. */
export function isEngineName(v: unknown): v is EngineName {
  return typeof v === 'string' && Object.hasOwn(ENGINES, v);
}

/** The entry of `name`. */
export function engineInfo(name: EngineName): EngineInfo {
  return ENGINES[name];
}

/** The engine whose log lines carry `process` (the syslog process field, null when absent). */
export function engineOfLogProcess(process: string | undefined): EngineName {
  const own = ENGINE_NAMES.find((n) => {
    const p = engineInfo(n).logProcess;
    return p !== null && process?.startsWith(p) === true;
  });
  return own ?? ENGINE_NAMES.find((n) => engineInfo(n).logProcess === null)!;
}
