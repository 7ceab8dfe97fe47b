/**
 * The privileged helper's argv: `VERB [--flag VALUE]...`, encoded and decoded from the field
 * tables of shared/operation-input.ts (the same schema the contract and the CLI use). A list
 * travels as one comma-joined value (`--allow-zones a.example,b.example`).
 */
import {
  START_FIELDS,
  STOP_FIELDS,
  fieldKind,
  keysFor,
  repeatedFlagMessage,
  type FieldTable,
  type InputOf,
  type KeysFor,
} from '../../shared/operation-input';

/** The fixed verbs of the privileged helper. */
export const HELPER_VERBS = ['start', 'stop', 'uninstall'] as const;
/** One of HELPER_VERBS. */
export type HelperVerb = (typeof HELPER_VERBS)[number];

/** The Start fields the helper carries. */
export type HelperStartInput = InputOf<typeof START_FIELDS, KeysFor<typeof START_FIELDS, 'helper'>>;
/** The Stop/uninstall fields the helper carries. */
export type HelperStopInput = InputOf<typeof STOP_FIELDS, KeysFor<typeof STOP_FIELDS, 'helper'>>;

/** A validated helper request: a fixed verb and only the arguments that verb takes. */
export type HelperRequest = ({ verb: 'start' } & HelperStartInput) | ({ verb: 'stop' | 'uninstall' } & HelperStopInput);

/** Thrown for any argv the helper does not accept (exit 2). */
export class HelperUsageError extends Error {}

/** Each verb's field table. */
const TABLES: Record<HelperVerb, FieldTable> = { start: START_FIELDS, stop: STOP_FIELDS, uninstall: STOP_FIELDS };

/** Per verb: helper flag → field key. */
const FLAG_KEYS: Record<HelperVerb, Record<string, string>> = Object.fromEntries(
  HELPER_VERBS.map((verb) => [verb, Object.fromEntries(keysFor(TABLES[verb], 'helper').map((k) => [TABLES[verb][k]!.helper!.flag, k]))]),
) as Record<HelperVerb, Record<string, string>>;

/**
 * Parses the helper's argv: `VERB [--flag value]...` with each flag at most once. Throws
 * HelperUsageError for an unknown verb, an unknown or repeated flag, a missing or invalid value.
 */
export function parseHelperArgs(argv: readonly string[]): HelperRequest {
  const [verb, ...rest] = argv;
  if (!verb || !(HELPER_VERBS as readonly string[]).includes(verb)) {
    throw new HelperUsageError(`Unknown helper verb "${String(verb ?? '').slice(0, 32)}"; expected one of ${HELPER_VERBS.join(', ')}.`);
  }
  const table = TABLES[verb as HelperVerb];
  const keys = FLAG_KEYS[verb as HelperVerb];
  const out: Record<string, unknown> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i]!;
    const value = rest[i + 1];
    // Own properties only: `__proto__`, `constructor` or `toString` would otherwise find
    // Object.prototype members (a TypeError, or a request with a junk key; found by a property test).
    const key = Object.hasOwn(keys, flag) ? keys[flag] : undefined;
    if (!key) throw new HelperUsageError(`The helper's ${verb} does not take "${flag.slice(0, 32)}".`);
    if (key in out) throw new HelperUsageError(repeatedFlagMessage(flag));
    if (value === undefined) throw new HelperUsageError(`Invalid value for ${flag}.`);
    const parsed = table[key]!.schema.safeParse(fieldKind(table[key]!) === 'list' ? value.split(',') : value);
    if (!parsed.success) throw new HelperUsageError(`Invalid value for ${flag}.`);
    out[key] = parsed.data;
  }
  return { verb, ...out } as HelperRequest;
}

/** The argv that encodes `req` (inverse of parseHelperArgs; an empty list is not sent). */
export function helperArgs(req: HelperRequest): string[] {
  const { verb, ...input } = req;
  const table = TABLES[verb];
  const args: string[] = [verb];
  for (const key of keysFor(table, 'helper')) {
    const v = (input as Record<string, unknown>)[key];
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    args.push(table[key]!.helper!.flag, Array.isArray(v) ? v.join(',') : String(v));
  }
  return args;
}
