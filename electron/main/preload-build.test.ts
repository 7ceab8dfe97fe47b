import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { buildPreload, PRELOAD_BUNDLE } from './preload-build';

describe('buildPreload', () => {
  it('writes one CommonJS file whose only require is electron (sandboxed preloads cannot load local files)', async () => {
    expect(await buildPreload()).toBe(PRELOAD_BUNDLE);
    expect(PRELOAD_BUNDLE.endsWith('/out/preload/preload.cjs')).toBe(true);
    const code = await readFile(PRELOAD_BUNDLE, 'utf8');
    expect([...code.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toMatch(/^\s*export\s/m);
    expect(code).toContain('exposeInMainWorld("k2sDns"');
  });
});
