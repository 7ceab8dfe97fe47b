/**
 * THE one contract between the renderer and the main process (Electron IPC or the web bridge).
 * Each call name maps to a zod input schema (validated in main, parsed from `unknown`) and an
 * output type. The preload API, the web client, the IPC handlers and the AppBackend interface
 * are all derived from this map: add a call here and the compiler lists every place to wire it.
 * Pure module: no Node or DOM imports.
 */
// A namespace import, not `{ z }`: esbuild then keeps only the zod functions used (`{ z }` is one
// object holding all of zod, locales included: ~750 KB that every CLI command parsed, ~90 ms).
import * as z from 'zod';
import type { LifecycleEvent, ResultEvent } from './lifecycle-events';
import {
  QUERY_TYPES,
  type ClusterDiscovery,
  type ClusterStatus,
  type HostDnsStatus,
  type LogLine,
  type LogPage,
  type LogReset,
  type LogSearch,
  type QueryResult,
  type ResolverDiff,
} from './types';
import type { DoctorFinding } from './doctor';
import type { HealthReport } from './health';
import { allowZoneList, contractStartInput, stopInput, zonesInput } from './operation-input';
import type { ErrorCode } from './error-codes';
import type { ExactQueryLog } from './query-log/exact';

/** One call: its input schema and (type-only) its output. */
export interface CallSpec<I extends z.ZodType, O> {
  input: I;
  /** Phantom: never set at runtime, only carries the output type. */
  readonly _output?: O;
}

/** Declares a call whose output type is `O` (curried so `I` is inferred from the schema). */
function defineCall<O>() {
  return <I extends z.ZodType>(input: I): CallSpec<I, O> => ({ input });
}

/** Input of calls that take nothing: `{}` only (undefined is normalized to `{}` by dispatch). */
const noInput = z.object({}).strict();

// --- zone policy ---
/** Zones the user allows past the zone policy (shared/operation-input.ts). */
export { allowZoneList };

/**
 * A query name: at most 253 characters (RFC 1035 §2.3.4 limit of a name in text form), letters,
 * digits, `-`, `_` (SRV labels), dot-separated, optional trailing dot, or `.` for the root.
 * An IPv4 literal already fits; an IPv6 literal (hex, `:` and at most one `::`, for a PTR
 * lookup of fd00::1 say) is accepted too — the query probe turns both into their arpa name.
 */
export const queryName = z
  .string()
  .min(1)
  .max(253)
  .regex(
    /^(\.|[A-Za-z0-9_-]{1,63}(\.[A-Za-z0-9_-]{1,63})*\.?|(?=[0-9A-Fa-f:.]{2,45}$)[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*)$/,
    'must be a DNS name such as kubernetes.default.svc.cluster.local, or an IP address for a PTR lookup',
  );

/**
 * A query target: `system` (getaddrinfo), `proxy`, `coredns`, or a server as IP[:port]
 * (IPv6 with a port as `[addr]:port`). Dispatch additionally requires it to be in `query:targets`.
 */
export const queryTarget = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^(system|proxy|coredns|[0-9.]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?|[0-9A-Fa-f:.]+)$/,
    'must be system, proxy, coredns or an IP[:port] from the targets list',
  );

/** One entry of the query tester's target select. `server` is `system` or `IP:PORT`. */
export interface QueryTarget {
  id: string;
  label: string;
  server: string;
}

/** What the app can do on this host. `reason` says why lifecycle is unsupported, else null. */
export interface AppInfo {
  platform: string;
  lifecycleSupported: boolean;
  reason: string | null;
  version: string;
}

/** The call map. Keys are `domain:verb`; the method name is derived (`dns:start` → `dnsStart`). */
export const CONTRACT = {
  'cluster:status': defineCall<ClusterStatus>()(noInput),
  'dns:status': defineCall<HostDnsStatus>()(noInput),
  // websec: no call takes a kubeconfig path. The page (possibly a stolen web-mode
  // session) could otherwise make the backend load a file of its choosing; the backend uses the
  // kubeconfig it was started with (`k2s-dns ui --kubeconfig`, else the usual lookup).
  // The Start, Stop and Zones inputs are shared/operation-input.ts: the helper and the CLI use the same fields.
  'dns:start': defineCall<ResultEvent>()(contractStartInput),
  'dns:stop': defineCall<ResultEvent>()(stopInput),
  'dns:uninstall': defineCall<ResultEvent>()(noInput),
  'zones:list': defineCall<ClusterDiscovery>()(zonesInput),
  'resolver:diff': defineCall<ResolverDiff>()(noInput),
  'query:run': defineCall<QueryResult>()(
    z
      .object({
        name: queryName,
        type: z.enum(QUERY_TYPES),
        target: queryTarget,
        transport: z.enum(['udp', 'tcp']),
      })
      .strict(),
  ),
  'query:targets': defineCall<QueryTarget[]>()(noInput),
  'logs:tail': defineCall<LogLine[]>()(
    z.object({ lines: z.number().int().min(1).max(5000) }).strict(),
  ),
  /**
   * The proxy log history (current file and `<log>.1`), newest page first: without `before` the
   * last `lines` lines (the follower continues after them), else the `lines` lines before the cursor.
   */
  'logs:page': defineCall<LogPage>()(
    z
      .object({
        lines: z.number().int().min(1).max(5000),
        before: z.object({ ino: z.number().int().min(0), offset: z.number().int().min(0) }).strict().optional(),
      })
      .strict(),
  ),
  /**
   * Searches the whole log file set for `text` (case-insensitive, literal), streaming the files;
   * returns the match count and the newest matches with `context` lines around each (≤ `lines`).
   * Health probe lines (shared/health-probe.ts) are not matches unless `probes` is true.
   */
  'logs:search': defineCall<LogSearch>()(
    z
      .object({
        text: z.string().min(1).max(200).regex(/^[^\r\n]+$/, 'must be one line of text'),
        lines: z.number().int().min(1).max(5000),
        context: z.number().int().min(0).max(50),
        probes: z.boolean().optional(),
      })
      .strict(),
  ),
  /**
   * The exact query log (rows paired from the proxy's packets, electron/core/capture/): the newest
   * `rows` rows, or why there is none (tcpdump missing: the engine's own log is the fallback).
   * With `text`: the newest `rows` rows of both files (`.1`, then the current file) whose name,
   * client, rcode, upstream or answers hold `text` (case-insensitive), and `search` says how many
   * matched and what was read. Health probe rows do not match unless `probes` is true. With
   * `before` (µs since the epoch, the answer's `oldestUs` of the oldest row held): the newest
   * `rows` rows asked at or before it, the page older than the rows held; with `text` too, of the
   * matching rows (the filtered view's older matches: walk5 M2). `rows` ≤ 10,000: one older page
   * (renderer/src/stores/logs.ts EXACT_OLDER_ROWS; the newest rows are asked 2,000 at a time).
   */
  'logs:exact': defineCall<ExactQueryLog>()(
    z
      .object({
        rows: z.number().int().min(1).max(10_000),
        text: z.string().min(1).max(200).regex(/^[^\r\n]+$/, 'must be one line of text').optional(),
        probes: z.boolean().optional(),
        before: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      })
      .strict(),
  ),
  'app:info': defineCall<AppInfo>()(noInput),
  /** Read-only host checks (`k2s-dns doctor`), one finding per check. */
  'doctor:run': defineCall<DoctorFinding[]>()(noInput),
  // --- health: the end-to-end path check, run fresh on every call. ---
  'health:check': defineCall<HealthReport>()(noInput),
} as const;

/** Every call name, e.g. `dns:start`. */
export type CallName = keyof typeof CONTRACT;
/** What the caller passes (before zod defaults/transforms). */
export type CallInput<K extends CallName> = z.input<(typeof CONTRACT)[K]['input']>;
/** What the backend receives (after validation). */
export type CallParsed<K extends CallName> = z.output<(typeof CONTRACT)[K]['input']>;
/** What the call resolves to. */
export type CallOutput<K extends CallName> =
  (typeof CONTRACT)[K] extends CallSpec<z.ZodType, infer O> ? O : never;

/** All call names at runtime, in contract order. */
export const CALL_NAMES = Object.keys(CONTRACT) as CallName[];

/** The calls that change the host: one at a time per backend (dispatch), never repeated by a client (web-invoke). */
export const LIFECYCLE_CALLS: ReadonlySet<CallName> = new Set(['dns:start', 'dns:stop', 'dns:uninstall']);

/** True when `name` is a contract call (own key only: `__proto__`, `toString` are not calls). */
export function isCallName(name: string): name is CallName {
  return Object.prototype.hasOwnProperty.call(CONTRACT, name);
}

/** Calls whose input accepts `{}` (no required field); the API lets callers omit the argument. */
export type NoInputCall = {
  [K in CallName]: {} extends CallInput<K> ? K : never;
}[CallName];

/** `dns:start` → `dnsStart`, `app:info` → `appInfo`. */
export type MethodName<K extends string> = K extends `${infer A}:${infer B}` ? `${A}${Capitalize<B>}` : K;

/** Runtime twin of MethodName. */
export function methodName<K extends CallName>(call: K): MethodName<K> {
  const [domain, verb] = call.split(':') as [string, string];
  return `${domain}${verb.charAt(0).toUpperCase()}${verb.slice(1)}` as MethodName<K>;
}

/** Events pushed main → renderer, with their payload types. */
export interface ContractEvents {
  'lifecycle:event': LifecycleEvent;
  'logs:lines': LogLine[];
  /** The log the pushed lines came from is gone (removed, replaced, emptied): held lines are stale. */
  'logs:reset': LogReset;
}
/** Event channel names. */
export type EventName = keyof ContractEvents;
/** Event names at runtime. */
export const EVENT_NAMES: readonly EventName[] = ['lifecycle:event', 'logs:lines', 'logs:reset'];

/** Machine-readable error codes that cross the boundary: shared/error-codes.ts (any other string is a bug the catalogue test finds). */
export type ApiErrorCode = ErrorCode | (string & {});

/** How a result crosses IPC/HTTP: errors are data, never thrown across the boundary. */
export type Envelope<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: ApiErrorCode; message: string } };

/** The error the renderer sees: rebuilt from `{ok:false,error}` on its side of the boundary. */
export class ApiError extends Error {
  /** Machine-readable code, e.g. INVALID_INPUT, BUSY, PORT_IN_USE. */
  readonly code: ApiErrorCode;
  constructor(code: ApiErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

/** Returns `data` or throws the ApiError carried by the envelope (also for malformed replies). */
export function unwrap<T>(envelope: unknown): T {
  const env = envelope as Envelope<T> | null;
  if (env && typeof env === 'object' && env.ok === true) return env.data;
  if (env && typeof env === 'object' && env.ok === false && env.error) {
    throw new ApiError(env.error.code, env.error.message);
  }
  throw new ApiError('NETWORK', 'The app backend sent a malformed reply; restart the app.');
}

/** Formats zod issues as one sentence per field, e.g. `name: Too big: expected …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
