import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileMemo } from './exact-memo';

const dir = mkdtempSync(join(tmpdir(), 'k2s-dns-memo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createFileMemo', () => {
  it('reads again only when a file grows, is replaced, appears, or the key changes', async () => {
    const rows = join(dir, 'queries.jsonl');
    const rotated = `${rows}.1`;
    writeFileSync(rows, '{"a":1}\n');
    const memo = createFileMemo<string>();
    let n = 0;
    const read = async () => `read ${++n}`;
    expect(await memo.get([rows, rotated], 'rows=2000', read)).toBe('read 1');
    expect(await memo.get([rows, rotated], 'rows=2000', read)).toBe('read 1');
    expect(memo.reads).toBe(1);
    appendFileSync(rows, '{"b":2}\n');
    expect(await memo.get([rows, rotated], 'rows=2000', read)).toBe('read 2');
    renameSync(rows, rotated); // rotation: the rows move to .1, a new file takes the name
    writeFileSync(rows, '');
    expect(await memo.get([rows, rotated], 'rows=2000', read)).toBe('read 3');
    expect(await memo.get([rows, rotated], 'rows=2000', read)).toBe('read 3');
    expect(await memo.get([rows, rotated], 'rows=10', read)).toBe('read 4');
    expect(memo.reads).toBe(4);
  });

  it('does not keep a value `keep` refuses', async () => {
    const missing = join(dir, 'never.jsonl');
    const memo = createFileMemo<{ available: boolean }>();
    const read = async () => ({ available: false });
    await memo.get([missing], 'k', read, (v) => v.available);
    await memo.get([missing], 'k', read, (v) => v.available);
    expect(memo.reads).toBe(2);
  });
});
