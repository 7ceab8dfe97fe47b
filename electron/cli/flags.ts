/**
 * CLI flags derived from the operation field tables (shared/operation-input.ts): the
 * node:util parseArgs options of an operation, and its parsed values turned into that
 * operation's input, checked by the same zod schema the contract and the helper use.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fieldKind, keysFor, repeatedFlagMessage, type FieldTable, type InputOf, type KeysFor } from '../../shared/operation-input';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A flag value the CLI refuses; the caller prints it with the usage hint (exit 2). */
export class UsageError extends Error {}

/** The parseArgs options of the fields of `table` the CLI carries. */
export function cliOptionsOf(table: FieldTable): Options {
  const options: Options = {};
  for (const key of keysFor(table, 'cli')) {
    const kind = fieldKind(table[key]!);
    options[table[key]!.cli!.flag] = kind === 'switch' ? { type: 'boolean' } : { type: 'string', ...(kind === 'list' ? { multiple: true } : {}) };
  }
  return options;
}

/** The refusal of `--kubeconfig ''`. */
export const EMPTY_KUBECONFIG = '--kubeconfig must be a path to a kubeconfig file, not "" (an empty value); leave the flag out to let k2s-dns find the kubeconfig itself.';

/**
 * node:util parseArgs (strict) of `args`, refusing a single-value string flag given more than
 * once (parseArgs would keep the last one): the same rule the helper's argv has
 * (shared/operation-input.ts repeatedFlagMessage). A list flag (`multiple`) may repeat; so may
 * a switch (`--json --json` means the same). An empty `--kubeconfig` is refused. Throws UsageError, or parseArgs' ERR_PARSE_ARGS_*.
 */
export function parseCliArgs(args: string[], options: Options, allowPositionals: boolean): { values: Record<string, unknown>; positionals: string[] } {
  const { values, positionals, tokens } = parseArgs({ args, options, allowPositionals, strict: true, tokens: true });
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const o = options[t.name];
    if (!o || o.type !== 'string' || o.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(repeatedFlagMessage(t.rawName.startsWith('--') ? `--${t.name}` : t.rawName));
    seen.add(t.name);
    // An empty path is no kubeconfig: never read as "absent" (that would quietly pick another file).
    if (t.name === 'kubeconfig' && t.value === '') throw new UsageError(EMPTY_KUBECONFIG);
  }
  return { values: values as Record<string, unknown>, positionals };
}

/** Most rows `k2s-dns queries --lines` prints. */
export const MAX_QUERY_LINES = 5000;

/**
 * The row count of `k2s-dns queries --lines N` (default 50 when absent): decimal digits only,
 * 1–MAX_QUERY_LINES. `Number()` alone would take `1e3`, `0x10`, ` 7` and `5.0`; none of them is
 * what a user types for a count. Throws UsageError in the CLI's words.
 */
export function queryLinesOf(raw: unknown): number {
  if (raw === undefined) return 50;
  const text = String(raw);
  const n = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_QUERY_LINES)) throw new UsageError(`--lines must be a whole number from 1 to ${MAX_QUERY_LINES}, not "${shown(text)}".`);
  return n;
}

/** `text` cut to 64 characters with control characters shown as `?` (safe to print). */
function shown(text: string): string {
  return text.slice(0, 64).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/**
 * The input of `table` from parseArgs `values`: absent flags stay absent, lists are normalized
 * per element, a negated switch (`--no-log-queries`) sets false. Throws UsageError naming the
 * flag and what it must be.
 */
export function cliInputOf<T extends FieldTable>(table: T, values: Record<string, unknown>): InputOf<T, KeysFor<T, 'cli'>> {
  const out: Record<string, unknown> = {};
  for (const key of keysFor(table, 'cli')) {
    const spec = table[key]!;
    const { flag, negate, normalize } = spec.cli!;
    const raw = values[flag];
    if (raw === undefined) continue;
    // A normalize that refuses the text (zone-name.ts foldZoneText) speaks for the flag.
    const norm = (t: string) => {
      if (!normalize) return t;
      try {
        return normalize(t);
      } catch (err) {
        throw new UsageError(`--${flag} ${(err as Error).message}`);
      }
    };
    const value = negate ? raw !== true : Array.isArray(raw) ? (raw as string[]).map(norm) : typeof raw === 'string' ? norm(raw) : raw;
    const parsed = spec.schema.safeParse(value);
    if (parsed.success) {
      out[key as string] = parsed.data;
      continue;
    }
    const issue = parsed.error.issues[0]!;
    if (Array.isArray(raw) && issue.path.length === 0 && issue.code === 'too_big') {
      throw new UsageError(`--${flag} was given more than ${String(issue.maximum)} times; give only the ones you need.`);
    }
    const bad = Array.isArray(raw) ? String((raw as string[])[Number(issue.path[0] ?? 0)] ?? '') : String(raw);
    throw new UsageError(`--${flag} must be ${spec.what}, not "${shown(bad)}".`);
  }
  return out as InputOf<T, KeysFor<T, 'cli'>>;
}
