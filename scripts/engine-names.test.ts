/**
 * Engines are told apart only through the engine table (shared/engines/table.ts and
 * electron/core/engines/): a grep over the product files of electron/, shared/ and renderer/
 * for a comparison with an engine name literal (`=== 'dnsmasq'`, `'adguard' !==`,
 * `case 'dnsmasq':`, `.startsWith('dnsmasq')`). Engine names as data (a default, a fix's
 * choice, a Record key) are fine; a branch on one belongs in that engine's own module.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productFiles, REPO } from './lib/repo-files';
import { ENGINE_NAMES } from '../shared/engines/table';


/**
 * The engines' own modules, where branching on an engine is the point: the two tables, each
 * engine's config renderer, and the log parsers that read each engine's lines (one assembler
 * per engine inside them); the doctor check of AdGuard dnsproxy's own version.
 */
const ENGINE_MODULES = [
  /^shared\/engines\//,
  /^electron\/core\/engines\//,
  /^shared\/(dnsproxy|dnsmasq)-config\.ts$/,
  /^shared\/log-line\.ts$/,
  /^shared\/query-log\/(dnsproxy|dnsmasq)\.ts$/,
  /^electron\/core\/doctor\/dnsproxy-version\.ts$/,
];


const NAMES = ENGINE_NAMES.join('|');
/** A comparison with an engine name literal, either side; a case label; a prefix test. */
const COMPARISON = new RegExp(`[!=]==\\s*['"\`](${NAMES})['"\`]|['"\`](${NAMES})['"\`]\\s*[!=]==|case\\s+['"\`](${NAMES})['"\`]\\s*:|startsWith\\(\\s*['"\`](${NAMES})['"\`]`);

/** `file:line: text` of every comparison outside the engines' own modules (comments skipped). */
function offenders(): string[] {
  return productFiles()
    .filter((f) => !ENGINE_MODULES.some((re) => re.test(f)))
    .flatMap((f) =>
      readFileSync(join(REPO, f), 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${f}:${i + 1}` }))
        .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && COMPARISON.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
}

describe('engine names (one engine table)', () => {
  it('the pattern catches the comparisons it is meant to', () => {
    for (const s of ["x.engine === 'adguard'", "'dnsmasq' !== e", 'case "dnsmasq":', "p.startsWith('dnsmasq')"]) expect(COMPARISON.test(s)).toBe(true);
    for (const s of ["setEngine('dnsmasq')", "{ engine: 'adguard' }", "engine === 'auto'"]) expect(COMPARISON.test(s)).toBe(false);
  });

  it('no product file outside the engines\' own modules compares against an engine name', () => {
    expect(offenders()).toEqual([]);
  });

  it('every listed engine module exists', () => {
    const files = productFiles();
    for (const re of ENGINE_MODULES) expect(files.some((f) => re.test(f)), String(re)).toBe(true);
  });
});
