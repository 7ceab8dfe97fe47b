import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchHostSearch } from './host-search';

describe('watchHostSearch: the search list host apps use, as rows record it', () => {
  it('reads the last search line, follows a change, and is null for a missing file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'host-search-'));
    const file = path.join(dir, 'resolv.conf');
    writeFileSync(file, 'nameserver 127.0.0.1\nsearch example.test\n');
    const w = await watchHostSearch(file, 20);
    try {
      expect(w.current()).toEqual(['example.test']);
      writeFileSync(file, 'nameserver 127.0.0.1\nsearch example.test lan\n');
      await expect.poll(() => w.current(), { timeout: 2000 }).toEqual(['example.test', 'lan']);
    } finally {
      w.stop();
    }
    const none = await watchHostSearch(path.join(dir, 'missing'), 20);
    none.stop();
    expect(none.current()).toBeNull();
  });

  it('a file over the resolver bound (64 KiB) or a FIFO is not read: null, and the watch never blocks', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'host-search-'));
    const big = path.join(dir, 'big');
    writeFileSync(big, `search example.test\n${'#'.repeat(70 * 1024)}\n`);
    const w = await watchHostSearch(big, 1000);
    w.stop();
    expect(w.current()).toBeNull();
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const f = await watchHostSearch(fifo, 1000);
    f.stop();
    expect(f.current()).toBeNull();
  });
});
