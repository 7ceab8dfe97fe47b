import type { EngineName } from '../../shared/types';
import type { DriftChoice } from '../core/lifecycle/options';
import { kubeSwitchRefusal } from '../../shared/kubeswitch-address';

/** The fixed verbs of the privileged helper. */
export const HELPER_VERBS = ['start', 'stop', 'uninstall'] as const;
/** One of HELPER_VERBS. */
export type HelperVerb = (typeof HELPER_VERBS)[number];

/** A validated helper request: a fixed verb and only the arguments that verb takes. */
export type HelperRequest =
  | { verb: 'start'; kubeconfig?: string; engine?: EngineName; kubeSwitch?: string; verifyName?: string; allowZones?: string }
  | { verb: 'stop' | 'uninstall'; onDrift?: DriftChoice };

/** Thrown for any argv the helper does not accept (exit 2). */
export class HelperUsageError extends Error {}

const ABS_PATH = /^\/[A-Za-z0-9._\-/+@]{0,4095}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOSTNAME = /^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/** Dotted-quad IPv4 without leading zeros. */
export const isIpv4Text = (v: string): boolean => IPV4.test(v);
/** A DNS host name (RFC 1123 labels, ≤ 253 characters, `_` allowed for SRV-style labels). */
export const isHostnameText = (v: string): boolean => HOSTNAME.test(v);

/** Per verb: flag → validator returning the parsed value or null when invalid. */
const FLAGS: Record<HelperVerb, Record<string, (v: string) => string | null>> = {
  start: {
    '--kubeconfig': (v) => (ABS_PATH.test(v) && !v.split('/').includes('..') ? v : null),
    '--engine': (v) => (v === 'adguard' || v === 'dnsmasq' ? v : null),
    '--kubeswitch': (v) => (kubeSwitchRefusal(v) === null ? v : null),
    '--verify-name': (v) => (HOSTNAME.test(v) ? v : null),
    // Zone policy allows: comma-separated zone names, at most 100.
    '--allow-zones': (v) => (isAllowZonesText(v) ? v : null),
  },
  stop: { '--on-drift': (v) => (v === 'keep' || v === 'restore' ? v : null) },
  uninstall: { '--on-drift': (v) => (v === 'keep' || v === 'restore' ? v : null) },
};

const KEY: Record<string, string> = { '--kubeconfig': 'kubeconfig', '--engine': 'engine', '--kubeswitch': 'kubeSwitch', '--verify-name': 'verifyName', '--on-drift': 'onDrift', '--allow-zones': 'allowZones' };

/** `zone1,zone2,…`: 1–100 lower-case zone names without trailing dot (the helper's --allow-zones). */
export function isAllowZonesText(v: string): boolean {
  const zones = v.split(',');
  return v.length <= 100 * 254 && zones.length <= 100 && zones.every((z) => /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/.test(z) && z.length <= 253);
}

/**
 * Parses the helper's argv: `VERB [--flag value]...` with each flag at most once. Throws
 * HelperUsageError for an unknown verb, an unknown or repeated flag, a missing or invalid value.
 */
export function parseHelperArgs(argv: readonly string[]): HelperRequest {
  const [verb, ...rest] = argv;
  if (!verb || !(HELPER_VERBS as readonly string[]).includes(verb)) {
    throw new HelperUsageError(`Unknown helper verb "${String(verb ?? '').slice(0, 32)}"; expected one of ${HELPER_VERBS.join(', ')}.`);
  }
  const allowed = FLAGS[verb as HelperVerb];
  const out: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i]!;
    const value = rest[i + 1];
    // Own properties only: `__proto__`, `constructor` or `toString` would otherwise find
    // Object.prototype members (a TypeError, or a request with a junk key; found by a property test).
    const check = Object.hasOwn(allowed, flag) ? allowed[flag] : undefined;
    if (!check) throw new HelperUsageError(`The helper's ${verb} does not take "${flag.slice(0, 32)}".`);
    if (KEY[flag]! in out) throw new HelperUsageError(`${flag} given twice.`);
    const parsed = value === undefined ? null : check(value);
    if (parsed === null) throw new HelperUsageError(`Invalid value for ${flag}.`);
    out[KEY[flag]!] = parsed;
  }
  return { verb, ...out } as HelperRequest;
}

/** The argv that encodes `req` (inverse of parseHelperArgs). */
export function helperArgs(req: HelperRequest): string[] {
  const args: string[] = [req.verb];
  const add = (flag: string, v: string | undefined) => {
    if (v !== undefined) args.push(flag, v);
  };
  if (req.verb === 'start') {
    add('--kubeconfig', req.kubeconfig);
    add('--engine', req.engine);
    add('--kubeswitch', req.kubeSwitch);
    add('--verify-name', req.verifyName);
    add('--allow-zones', req.allowZones);
  } else {
    add('--on-drift', req.onDrift);
  }
  return args;
}
