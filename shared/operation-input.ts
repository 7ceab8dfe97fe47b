/**
 * THE input schema of each host operation (start, stop, uninstall, zones), in one place. The
 * renderer↔main contract (shared/contract.ts), the privileged helper's argv
 * (electron/helper/request.ts) and the CLI's flags (electron/cli/start-flags.ts) all derive
 * from the field tables below, so one rule holds at every door.
 *
 * How to add a Start option:
 *  1. Add a field to START_FIELDS: its zod `schema`, and `contract`/`helper`/`cli` for each door
 *     that carries it (the helper flag `--x`, the CLI flag name) — types and parsers follow.
 *  2. Map it onto StartOptions in `startOptionsOf` (electron/core/lifecycle/options.ts).
 *  3. Add it to the CLI usage text (electron/cli/usage.ts) and the README.
 *
 * Pure module: zod only, no Node or DOM imports.
 */
// A namespace import, not `{ z }`: esbuild then keeps only the zod functions used (`{ z }` is one
// object holding all of zod, locales included: ~750 KB that every CLI command parsed, ~90 ms).
import * as z from 'zod';
import { KUBESWITCH_ALLOWED_TEXT, kubeSwitchRefusal } from './kubeswitch-address';
import { foldZoneText, MAX_ZONE_NAME_LENGTH, ZONE_NAME_RE } from './zone-name';
import { parseUpstream, upstreamPortProblem } from './proxy-upstream';
import { inetAton } from './inet-aton';
import { ENGINE_NAMES } from './engines/table';

/** Dotted-quad IPv4 without leading zeros, e.g. 172.19.1.1. */
export const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A DNS host name: RFC 1123 labels (`_` allowed for SRV-style labels), ≤ 253 characters, optional trailing dot. */
export const HOSTNAME_RE = /^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/** An absolute plain path (letters, digits, `. _ - / + @`), no `..` segment, ≤ 4096 characters. */
const ABS_PATH_RE = /^\/[A-Za-z0-9._\-/+@]{0,4095}$/;

/** Most zones a user may allow past the zone policy at once. */
export const MAX_ALLOW_ZONES = 100;

/** One zone name (shared/zone-name.ts). */
export const zoneName = z.string().max(MAX_ZONE_NAME_LENGTH).regex(ZONE_NAME_RE, 'must be a lower-case zone name such as corp.example');

/** Zones the user allows past the zone policy: lower-case names without trailing dot, at most 100. */
export const allowZoneList = z.array(zoneName).max(MAX_ALLOW_ZONES);

/** What a running K2s DNS does with a new network resolver file (`--on-network-change`). */
export const NETWORK_CHANGE_POLICIES = ['follow', 'keep'] as const;

/** The engines a Start may ask for: the engine table's names. */
export { ENGINE_NAMES };

/** The KubeSwitch listener: a private IPv4 address (shared/kubeswitch-address.ts) or `none`. */
export const kubeSwitchText = z
  .string()
  .max(15)
  .refine((v) => v === 'none' || IPV4_RE.test(v), 'must be an IPv4 address')
  .refine((v) => kubeSwitchRefusal(v) === null, KUBESWITCH_ALLOWED_TEXT);

/**
 * A DNS name that is not an address (start's external verify name). Refused: any name whose
 * last label is all digits — `1.2.3.4`, `1.2.3.4.` (the address with a root dot, which glibc
 * would send to DNS as a name under a TLD "4"), `1.2.3` and `1234` (inet_aton(3) short forms
 * getaddrinfo takes as addresses). No top-level domain is all-numeric (RFC 3696 §2), so no such
 * name can ever answer. Also refused: every other text inet_aton(3) reads as an address
 * (shared/inet-aton.ts), such as `0x7f000001` and `0177.1`: getaddrinfo(3) returns it as
 * 127.0.0.1 without asking DNS, so it would verify nothing.
 */
export const verifyNameText = z
  .string()
  .regex(HOSTNAME_RE, 'must be a DNS name such as kubernetes.io')
  .refine((v) => !/(^|\.)\d+\.?$/.test(v) && inetAton(v) === null, 'must be a DNS name such as kubernetes.io, not an IP address');

/** An absolute kubeconfig path as the helper accepts it (no `..`: root opens only what it was shown). */
export const absolutePath = z
  .string()
  .regex(ABS_PATH_RE, 'must be an absolute plain path')
  .refine((v) => !v.split('/').includes('..'), 'must not contain ..');

/** One plain path text from the command line (a user's own path; resolved by the CLI). */
const cliPath = z.string().min(1).max(4096).regex(/^[^\u0000-\u001f\u007f]+$/, 'must be a path without control characters');

/** An upstream endpoint: IP, IPv4:PORT, IPv6, IPv6%zone or [IPv6]:PORT, as the proxy config takes it (shared/proxy-upstream.ts). */
const upstreamText = z
  .string()
  .max(64)
  .refine((v) => {
    try {
      parseUpstream(v);
      return true;
    } catch {
      return false;
    }
  }, 'must be an IP or IP:PORT, e.g. 192.168.1.1 or [fd00::1]:53');

/** An --upstream text as given, or a refusal that names the port range when only its port is wrong (upstreamPortProblem). */
function portInRange(text: string): string {
  const why = upstreamPortProblem(text);
  if (why) throw new Error(why);
  return text;
}

/**
 * One option of an operation and the doors that carry it.
 * `helper.flag`: the helper's `--flag VALUE` (a list travels comma-joined as one value);
 * `cli.flag`: the CLI option name (a list is repeated, `negate` makes `--no-x` set false).
 */
export interface FieldSpec<S extends z.ZodType = z.ZodType> {
  schema: S;
  /** What a valid value is, for messages: `--engine must be <what>, not "x".` */
  what: string;
  /** Carried by the renderer↔main contract. */
  contract?: true;
  /** Carried by the helper's argv. */
  helper?: { flag: `--${string}` };
  /** Carried by the CLI. `normalize` is applied to each text before the schema (e.g. case). */
  cli?: { flag: string; negate?: true; normalize?: (text: string) => string };
}

/**
 * The refusal of a single-value flag given twice, the same at every door (the CLI, the helper):
 * neither takes the last one silently, a repeated `--engine` is a typo or a script bug.
 */
export function repeatedFlagMessage(flag: string): string {
  return `${flag} was given more than once (${flag} takes one value); give it once.`;
}

/** Defines a field, keeping its schema's type. */
const field = <S extends z.ZodType>(spec: FieldSpec<S>): FieldSpec<S> => spec;

/** The options of a Start, whatever door it came through. */
export const START_FIELDS = {
  /** The kubeconfig the helper's lookup starts with (the CLI's --kubeconfig is its own lookup's input). */
  kubeconfig: field({ schema: absolutePath, what: 'an absolute path without ..', helper: { flag: '--kubeconfig' } }),
  /** Default: adguard when its binary exists, else dnsmasq. */
  engine: field({ schema: z.enum(ENGINE_NAMES), what: `one of ${ENGINE_NAMES.join(', ')}`, contract: true, helper: { flag: '--engine' }, cli: { flag: 'engine' } }),
  /** KubeSwitch listener address or `none`; default 172.19.1.1 when assigned on the host. */
  kubeSwitch: field({ schema: kubeSwitchText, what: KUBESWITCH_ALLOWED_TEXT, contract: true, helper: { flag: '--kubeswitch' }, cli: { flag: 'kubeswitch' } }),
  /** The external name verify resolves through the proxy and an upstream; default kubernetes.io. */
  verifyName: field({ schema: verifyNameText, what: 'a DNS name such as kubernetes.io', helper: { flag: '--verify-name' }, cli: { flag: 'verify-name' } }),
  /** Zones the zone policy refused that the user forwards anyway. */
  allowZones: field({
    schema: allowZoneList,
    what: 'a zone name such as corp.example',
    contract: true,
    helper: { flag: '--allow-zones' },
    // A name as people type it: ASCII case and the trailing dot are dropped (RFC 4343), non-ASCII refused.
    cli: { flag: 'allow-zone', normalize: foldZoneText },
  }),
  /** AdGuard dnsproxy binary to run instead of the installed one (CLI only: never through root's helper). */
  dnsproxyPath: field({ schema: cliPath, what: 'a path without control characters', cli: { flag: 'dnsproxy' } }),
  /**
   * Upstreams to use instead of the saved resolver's nameservers: the CLI's --upstream and the
   * window's Start options → Upstreams (Diagnostics suggests it for a resolver whose nameservers
   * loop, are gone or only serve a local zone).
   */
  upstreams: field({ schema: z.array(upstreamText).min(1).max(32), what: 'an IP or IP:PORT, e.g. 192.168.1.1 or [fd00::1]:53', contract: true, helper: { flag: '--upstreams' }, cli: { flag: 'upstream', normalize: portInRange } }),
  /** A new resolver file the network writes while running: follow (default) or keep it as drift (electron/core/lifecycle/follow.ts). */
  onNetworkChange: field({ schema: z.enum(NETWORK_CHANGE_POLICIES), what: `one of ${NETWORK_CHANGE_POLICIES.join(', ')}`, contract: true, helper: { flag: '--on-network-change' }, cli: { flag: 'on-network-change' } }),
  /** Log every query; default true (the log viewer shows them). */
  logQueries: field({ schema: z.boolean(), what: 'a switch', cli: { flag: 'no-log-queries', negate: true } }),
} as const;

/**
 * Which saved copy stop puts back (`--restore`): `newest` (default) the saved original — after a
 * followed network change the file the network wrote last; `start` the file that was in place
 * when K2s DNS started, kept once a follow replaced the saved original (host/start-copy.ts).
 */
export const RESTORE_CHOICES = ['newest', 'start'] as const;

/** The options of stop and uninstall. */
export const STOP_FIELDS = {
  /** What to do when someone else rewrote /etc/resolv.conf while K2s ran; default keep. */
  onDrift: field({ schema: z.enum(['keep', 'restore']), what: 'one of keep, restore', contract: true, helper: { flag: '--on-drift' }, cli: { flag: 'on-drift' } }),
  /** Which saved copy to put back: the newest (default) or the file from before Start. */
  restore: field({ schema: z.enum(RESTORE_CHOICES), what: `one of ${RESTORE_CHOICES.join(', ')}`, contract: true, helper: { flag: '--restore' }, cli: { flag: 'restore' } }),
} as const;

/** The options of zones (discovery only). */
export const ZONES_FIELDS = {
  allowZones: START_FIELDS.allowZones,
} as const;

/** How a field travels: a list (helper: comma-joined; CLI: repeated flag), a switch (CLI boolean flag) or one text. */
export function fieldKind(spec: FieldSpec): 'list' | 'switch' | 'text' {
  const type = spec.schema.def.type;
  return type === 'array' ? 'list' : type === 'boolean' ? 'switch' : 'text';
}

/** Field tables by name. */
export type FieldTable = Record<string, FieldSpec>;

type Door = 'contract' | 'helper' | 'cli';
/** The keys of `T` carried by `door`. */
export type KeysFor<T extends FieldTable, D extends Door> = { [K in keyof T]: T[K][D] extends undefined ? never : K }[keyof T];
/** The parsed input of table `T`: every field optional. */
export type InputOf<T extends FieldTable, K extends keyof T = keyof T> = { [P in K]?: z.output<T[P]['schema']> };

/** The strict zod object of `keys` of `table` (every field optional). */
function objectOf<T extends FieldTable>(table: T, keys: readonly (keyof T)[]) {
  const shape: Record<string, z.ZodType> = {};
  for (const k of keys) shape[k as string] = table[k]!.schema.optional();
  return z.object(shape).strict();
}

/** The keys of `table` carried by `door`, in table order. */
export function keysFor<T extends FieldTable, D extends Door>(table: T, door: D): KeysFor<T, D>[] {
  return (Object.keys(table) as (keyof T)[]).filter((k) => table[k]![door] !== undefined) as KeysFor<T, D>[];
}

/** Start input, all doors: the one shape from the button (its contract part) to startOptionsOf. */
export type StartInput = InputOf<typeof START_FIELDS>;
/** The part of StartInput the renderer sends (dns:start). */
export type ContractStartInput = InputOf<typeof START_FIELDS, KeysFor<typeof START_FIELDS, 'contract'>>;
/** Stop and uninstall input. */
export type StopInput = InputOf<typeof STOP_FIELDS>;
/** Zones input. */
export type ZonesInput = InputOf<typeof ZONES_FIELDS>;

/** Every Start field (what the helper and CLI decode into before startOptionsOf). */
export const startInput = objectOf(START_FIELDS, Object.keys(START_FIELDS) as (keyof typeof START_FIELDS)[]) as unknown as z.ZodType<StartInput, StartInput>;
/** The dns:start contract input. */
export const contractStartInput = objectOf(START_FIELDS, keysFor(START_FIELDS, 'contract')) as unknown as z.ZodType<ContractStartInput, ContractStartInput>;
/** The dns:stop contract input (uninstall takes nothing over the contract: it always keeps drift). */
export const stopInput = objectOf(STOP_FIELDS, keysFor(STOP_FIELDS, 'contract')) as unknown as z.ZodType<StopInput, StopInput>;
/** The zones:list contract input. */
export const zonesInput = objectOf(ZONES_FIELDS, keysFor(ZONES_FIELDS, 'contract')) as unknown as z.ZodType<ZonesInput, ZonesInput>;
