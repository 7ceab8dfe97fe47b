/** The bundled npm packages' license paragraphs of the copyright file, from node_modules (no network). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageDirOf, packageDirs } from '../bundled-packages.mjs';
import { bundledDirs, licenseCopyPath, readBundledLicense } from './licenses';
import { rpmSpec } from './rpm-spec';
import { copyright, type PackageMeta } from './texts';

const tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-licenses-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const meta: PackageMeta = { name: 'k2s-dns', version: '1.2.3', maintainer: 'M <m@example.invalid>', homepage: 'https://example.invalid', summary: 'S', description: 'D', epochSeconds: 1_796_137_200 };

/** A checkout with two bundles' lists and three packages: a LICENSE file, a nested one without, a LICENSE.md. */
function fakeRepo(): string {
  const repo = join(tmp, 'repo');
  const pkg = (dir: string, json: object, files: Record<string, string> = {}) => {
    mkdirSync(join(repo, dir), { recursive: true });
    writeFileSync(join(repo, dir, 'package.json'), JSON.stringify(json));
    for (const [f, t] of Object.entries(files)) writeFileSync(join(repo, dir, f), t);
  };
  pkg('node_modules/foo', { name: 'foo', version: '1.0.0', license: 'MIT', author: 'Ann <ann@example.invalid> (https://example.invalid)' }, { LICENSE: 'The MIT License\r\n\r\nCopyright (c) 2020 Ann\r\n\r\nPermission is hereby granted\tfree.\r\n' });
  pkg('node_modules/@s/bar/node_modules/baz', { name: 'baz', version: '0.2.0', license: 'ISC', author: { name: 'Bo', email: 'bo@example.invalid' } });
  pkg('node_modules/zed', { name: 'zed', version: '3.0.0', license: 'Apache-2.0' }, { 'LICENSE.md': 'Apache License\nVersion 2.0\n' });
  mkdirSync(join(repo, 'dist'), { recursive: true });
  mkdirSync(join(repo, 'renderer'), { recursive: true });
  writeFileSync(join(repo, 'dist/bundled-packages.json'), JSON.stringify(['node_modules/foo', 'node_modules/@s/bar/node_modules/baz']));
  writeFileSync(join(repo, 'renderer/bundled-packages.json'), JSON.stringify(['node_modules/zed', 'node_modules/foo']));
  return repo;
}

describe('bundled packages', () => {
  it('names the package directory of a module path (scoped, nested, rollup ids, our own files)', () => {
    expect(packageDirOf('node_modules/yaml/dist/index.js')).toBe('node_modules/yaml');
    expect(packageDirOf('/abs/checkout/node_modules/@kubernetes/client-node/dist/gen/api.js')).toBe('node_modules/@kubernetes/client-node');
    expect(packageDirOf('node_modules/a/node_modules/@b/c/lib/x.js')).toBe('node_modules/a/node_modules/@b/c');
    expect(packageDirOf('\0/x/node_modules/react/index.js?commonjs-module')).toBe('node_modules/react');
    expect(packageDirOf('electron/core/app-root.ts')).toBeNull();
    expect(packageDirs(['node_modules/ws/lib/a.js', 'node_modules/ws/index.js', 'shared/fix.ts', 'node_modules/diff/x.js'])).toEqual(['node_modules/diff', 'node_modules/ws']);
  });

  it('the copyright file: our MIT paragraph, then one Files: paragraph per bundled package with its own text', () => {
    const repo = fakeRepo();
    const dirs = bundledDirs([join(repo, 'dist'), join(repo, 'renderer')]);
    expect(dirs).toEqual(['node_modules/@s/bar/node_modules/baz', 'node_modules/foo', 'node_modules/zed']);
    const text = copyright(meta, dirs.map((d) => readBundledLicense(repo, d)));
    expect(text.startsWith('Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: k2s-dns\n')).toBe(true);
    expect(text).toContain('\n\nFiles: node_modules/@s/bar/node_modules/baz/*\nComment: baz 0.2.0, bundled into /usr/lib/k2s-dns\nCopyright: Bo <bo@example.invalid>\nLicense: ISC\n baz 0.2.0 ships no license file; its package.json says "ISC".\n');
    expect(text).toContain('\n\nFiles: node_modules/foo/*\nComment: foo 1.0.0, bundled into /usr/lib/k2s-dns; text from its LICENSE\nCopyright: Copyright (c) 2020 Ann\nLicense: MIT\n The MIT License\n .\n Copyright (c) 2020 Ann\n .\n Permission is hereby granted    free.\n');
    // Apache-2.0 is in Debian's common-licenses: referred to there (policy 12.5, lintian), the package's own file installed beside.
    const zed = readBundledLicense(repo, 'node_modules/zed');
    expect(licenseCopyPath(zed)).toBe('/usr/share/doc/k2s-dns/licenses/zed/LICENSE.md');
    expect(licenseCopyPath(readBundledLicense(repo, 'node_modules/foo'))).toBeNull();
    expect(text).toContain("\n\nFiles: node_modules/zed/*\nComment: zed 3.0.0, bundled into /usr/lib/k2s-dns; text from its LICENSE.md\nCopyright: the zed authors\nLicense: Apache-2.0\n On Debian systems the full text of the Apache-2.0 license is in /usr/share/common-licenses/Apache-2.0; zed's own LICENSE.md is installed as /usr/share/doc/k2s-dns/licenses/zed/LICENSE.md (the rpm's %license).\n");
    expect(text).not.toContain('Version 2.0');
    // copyright-format: paragraphs (header, ours, three bundled) are separated by exactly one empty line; no other line is empty.
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n\n')).toHaveLength(5);
  });

  it('refuses a build without its list, or a list naming a package node_modules lacks', () => {
    const repo = fakeRepo();
    expect(() => bundledDirs([join(repo, 'nowhere')])).toThrow(/bundled-packages\.json is missing: run npm run build/);
    expect(() => readBundledLicense(repo, 'node_modules/gone')).toThrow('node_modules/gone/package.json is missing, although the bundle holds node_modules/gone: run npm ci, then npm run build');
  });

  it('the rpm marks the copyright file as %license', () => {
    const spec = rpmSpec(meta, fileURLToPathRepo(), '/stage', [{ path: '/usr/share/doc/k2s-dns/copyright', from: { bytes: '' }, mode: 0o644 }, { path: '/usr/bin/k2s-dns', from: { bytes: '' }, mode: 0o755 }], []);
    expect(spec).toContain('\n%license %attr(0644,root,root) /usr/share/doc/k2s-dns/copyright\n');
    expect(rpmSpec(meta, fileURLToPathRepo(), '/stage', [{ path: '/usr/share/doc/k2s-dns/licenses/zed/LICENSE.md', from: { bytes: '' }, mode: 0o644 }], [])).toContain('\n%license %attr(0644,root,root) /usr/share/doc/k2s-dns/licenses/zed/LICENSE.md\n');
    expect(spec).toContain('\n%attr(0755,root,root) /usr/bin/k2s-dns\n');
  });
});

/** The repository root (rpmSpec reads the maintainer scripts from it). */
function fileURLToPathRepo(): string {
  return new URL('../../', import.meta.url).pathname;
}
