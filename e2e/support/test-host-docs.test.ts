import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_HOST_DOCS } from './test-host-docs';

const REPO = join(import.meta.dirname, '..', '..');
const BIN = join(REPO, '.tools', 'debian13', 'rootfs', 'usr', 'bin');

describe('try-package: reading the docs in the test host (new user, session 30: `man k2s-dns` failed there)', () => {
  it('try-package prints the line after the shell lines', () => {
    const source = readFileSync(join(REPO, 'e2e', 'try-package.ts'), 'utf8');
    expect(source).toMatch(/hostShellLines\(host, 'ada'\)\.join\('\\n'\)\}\\n\$\{TEST_HOST_DOCS\}/);
    expect(TEST_HOST_DOCS).toContain('`zcat /usr/share/doc/k2s-dns/README.md.gz | more`');
    expect(TEST_HOST_DOCS).toContain('`k2s-dns --help`');
  });

  // The cached root file system (scripts/build-debian-host.sh), where setup built it.
  it.skipIf(!existsSync(BIN))('names only programs the test host has, and says man and zless are missing because they are', () => {
    for (const have of ['zcat', 'more']) expect(existsSync(join(BIN, have)), have).toBe(true);
    for (const missing of ['man', 'less']) expect(existsSync(join(BIN, missing)), missing).toBe(false);
  });
});
