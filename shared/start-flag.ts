/**
 * One flag of `k2s-dns start` with its value, as shared/running-start.ts runningStartFlags gives
 * them and shared/fix.ts prints them: a flag that takes a value (`--engine dnsmasq`) carries it,
 * one that takes none (`--no-log-queries`) has none, so a reader never needs to know which is
 * which. Its own module: running-start.ts reaches fix.ts through state-file.ts, so neither file
 * may import the other's (scripts/import-rule.test.ts refuses the cycle). Pure module.
 */

/** A start flag (`--engine`) and its value (`dnsmasq`), or the flag alone when it takes none. */
export type StartFlag = readonly [flag: string, value?: string];

/** `flags` as the words of a command line, in order (each unquoted: shared/fix.ts quotes them). */
export function startFlagWords(flags: readonly StartFlag[]): string[] {
  return flags.flatMap(([flag, value]) => (value === undefined ? [flag] : [flag, value]));
}
