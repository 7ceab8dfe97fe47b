import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { debFreshnessWarning, lastCommitMs, newestFile, staleDebWarning } from './deb-freshness';

const T = Date.UTC(2026, 0, 15, 10, 0, 0);
const H = 3_600_000;
const repo = '/r';
const deb = { path: '/r/out/packages/k2s-dns_0.1.0_amd64.deb', mtimeMs: T };

describe('staleDebWarning (new-user walk 20: try-package installed an old .deb silently)', () => {
  it('names what is newer than the .deb, with times, and the command that rebuilds it', () => {
    expect(staleDebWarning(repo, deb, { path: '/r/dist/k2s-dns.mjs', mtimeMs: T + 2 * H }, T - H)).toBe(
      'Warning: out/packages/k2s-dns_0.1.0_amd64.deb (built 2026-01-15 10:00:00 UTC) is older than the build output dist/k2s-dns.mjs (2026-01-15 12:00:00 UTC), so it may not hold the current code. Run npm run package to rebuild it (about 30 s), then npm run try-package again; trying this one anyway.',
    );
    expect(staleDebWarning(repo, deb, { path: '/r/dist/k2s-dns.mjs', mtimeMs: T - H }, T + 3 * H)).toBe(
      'Warning: out/packages/k2s-dns_0.1.0_amd64.deb (built 2026-01-15 10:00:00 UTC) is older than the last commit (2026-01-15 13:00:00 UTC), so it may not hold the current code. Run npm run package to rebuild it (about 30 s), then npm run try-package again; trying this one anyway.',
    );
    expect(staleDebWarning(repo, deb, { path: '/r/out/renderer/index.html', mtimeMs: T + 1 }, T + H)).toMatch(/is older than the build output out\/renderer\/index.html \(2026-01-15 10:00:00 UTC\) and the last commit \(2026-01-15 11:00:00 UTC\), so/);
  });

  it('nothing when the .deb is at least as new as both (a package right after its build and commit), or neither is known', () => {
    expect(staleDebWarning(repo, deb, { path: '/r/dist/k2s-dns.mjs', mtimeMs: T - 20_000 }, T - H)).toBeNull();
    // %ct has whole seconds: a commit in the .deb's own second is not newer.
    expect(staleDebWarning(repo, { ...deb, mtimeMs: T + 400 }, null, T)).toBeNull();
    expect(staleDebWarning(repo, deb, null, null)).toBeNull();
  });
});

describe('debFreshnessWarning on a checkout', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  it('reads dist/ and out/renderer recursively and the last commit of the checkout', () => {
    dir = mkdtempSync(join(tmpdir(), 'k2sdns-debfresh-'));
    const at = (p: string, ms: number) => {
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, 'x');
      utimesSync(p, ms / 1000, ms / 1000);
    };
    const debPath = join(dir, 'out/packages/k2s-dns_0.1.0_amd64.deb');
    at(debPath, T);
    at(join(dir, 'dist/k2s-dns.mjs'), T - H);
    at(join(dir, 'out/renderer/assets/index.js'), T - 2 * H);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, env: { ...process.env, GIT_COMMITTER_DATE: '2026-01-15T09:00:00Z', GIT_AUTHOR_DATE: '2026-01-15T09:00:00Z' } });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'c');
    expect(lastCommitMs(dir)).toBe(T - H);
    expect(newestFile([join(dir, 'dist'), join(dir, 'out/renderer'), join(dir, 'missing')])).toEqual({ path: join(dir, 'dist/k2s-dns.mjs'), mtimeMs: T - H });
    expect(debFreshnessWarning(dir, debPath)).toBeNull();
    // `npm run build` after the package: the renderer's newest file is newer than the .deb.
    at(join(dir, 'out/renderer/assets/index.js'), T + H);
    expect(debFreshnessWarning(dir, debPath)).toBe(
      'Warning: out/packages/k2s-dns_0.1.0_amd64.deb (built 2026-01-15 10:00:00 UTC) is older than the build output out/renderer/assets/index.js (2026-01-15 11:00:00 UTC), so it may not hold the current code. Run npm run package to rebuild it (about 30 s), then npm run try-package again; trying this one anyway.',
    );
    // A source file newer than the .deb (a pull of an older commit, an edit): said too.
    at(join(dir, 'out/renderer/assets/index.js'), T - H);
    at(join(dir, 'shared/x.ts'), T + H);
    expect(debFreshnessWarning(dir, debPath)).toMatch(/is older than the source file shared\/x\.ts \(2026-01-15 11:00:00 UTC\), so/);
    expect(lastCommitMs(join(dir, 'out'))).toBe(T - H);
    expect(lastCommitMs(join(dir, 'nonexistent'))).toBeNull();
  });
});
