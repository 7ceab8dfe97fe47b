/**
 * docs/host-integration.md's table of what start writes lists every path uninstall removes
 * (OWNED_FILES): new-user walk 23 found the capture companion's unit, flags, parser and query log
 * missing from it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWNED_FILES } from './owned-files';

const DOC = readFileSync(join(__dirname, '../../../docs/host-integration.md'), 'utf8');
/** The table's rows: from its heading to the first line after it that is no table row. */
const TABLE = (() => {
  const from = DOC.indexOf('## What start writes, and what stop restores');
  const lines = DOC.slice(from).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  return lines.slice(first, end).join('\n');
})();

describe('docs/host-integration.md: every path uninstall removes', () => {
  it.each(OWNED_FILES.map((f) => [f]))('%s is in the table', (file) => {
    // A suffix copy (`dnsproxy.log.1`, `dnsproxy.pid.argv0`) is written beside its file as (+ `.1`).
    const suffix = /^(.*?)(\.1|\.argv0)$/.exec(file);
    const listed = TABLE.includes(`\`${file}\``) || (suffix !== null && TABLE.includes(`\`${suffix[1]}\` (+ \`${suffix[2]}\`)`));
    expect(listed, file).toBe(true);
  });
});
