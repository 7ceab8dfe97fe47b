import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findDeb } from '../try-package';

const dir = mkdtempSync(join(tmpdir(), 'k2s-find-deb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('try-package findDeb', () => {
  it('picks the newest version by number (0.10.0 after 0.9.0), not by name; null without one', () => {
    expect(findDeb(dir)).toBeNull();
    for (const v of ['0.9.0', '0.10.0', '0.2.1']) writeFileSync(join(dir, `k2s-dns_${v}_amd64.deb`), '');
    writeFileSync(join(dir, 'k2s-dns-0.11.0.x86_64.rpm'), '');
    expect(findDeb(dir)).toBe(join(dir, 'k2s-dns_0.10.0_amd64.deb'));
  });
});
