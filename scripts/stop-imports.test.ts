/**
 * `stop` loads only what it runs (issue #21: stop ≤ 0.25 s as the installed command). Two checks:
 *  - the modules stop evaluates before its first step — the static (evaluated-at-load) import
 *    closure of the CLI's stop path (main.ts's `stop` case: node-deps.ts and stop.ts) — reach no
 *    package that only other commands need (@kubernetes/client-node, dns-packet, tldts, yaml);
 *  - the built CLI script (scripts/build.mjs buildCliScript, dist/k2s-dns-cli.cjs), which every
 *    stop reads, decodes and deserializes whole, holds none of @kubernetes/client-node: that
 *    stays in dist/vendor-client-node.cjs, loaded by the commands that use it.
 * Dynamic `import()` is not followed: it runs only when its command calls it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';

/** Specifiers a file imports at load: value imports and re-exports (type-only ones and import() left out). */
function staticImports(text: string): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s)) {
      const c = s.importClause;
      const typeOnly = c?.isTypeOnly || (c && !c.name && c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push((s.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier && !s.isTypeOnly) {
      out.push((s.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** npm packages (and repo files) reached at load from `roots` (repo-relative .ts paths). */
function closure(roots: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const f = todo.pop()!;
    if (files.has(f)) continue;
    files.add(f);
    for (const spec of staticImports(readFileSync(join(REPO, f), 'utf8'))) {
      if (spec.startsWith('.')) {
        const base = posix.normalize(posix.join(posix.dirname(f), spec));
        const hit = ['.ts', '.tsx', '/index.ts', ''].map((e) => base + e).find((p) => { try { readFileSync(join(REPO, p)); return true; } catch { return false; } });
        if (hit) todo.push(hit);
      } else if (!spec.startsWith('node:')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  return { files, packages };
}

describe("stop's modules", () => {
  it('stop evaluates no module of client-node, dns-packet, tldts or yaml before its first step', () => {
    const { files, packages } = closure(['electron/cli/run-cli.ts', 'electron/cli/main.ts', 'electron/core/lifecycle/node-deps.ts', 'electron/core/lifecycle/stop.ts']);
    expect(files.has('electron/core/lifecycle/stop.ts')).toBe(true);
    expect(files.has('electron/core/lifecycle/lock.ts')).toBe(true);
    for (const p of ['@kubernetes/client-node', 'dns-packet', 'tldts', 'yaml', 'js-yaml']) expect([...packages]).not.toContain(p);
    expect([...files].filter((f) => /cluster\/(kube-client|discovery|client-node-parts)\.ts$/.test(f) || f.endsWith('probes/dns-query.ts') || f.endsWith('lifecycle/status.ts') || f.endsWith('health/probes.ts'))).toEqual([]);
  });

  it('the CLI script every stop reads holds none of @kubernetes/client-node (it stays in the vendor script)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'k2s-cli-script-'));
    try {
      const { buildCliScript } = (await import(new URL('./build.mjs', import.meta.url).href)) as { buildCliScript: (dir: string) => Promise<{ inputs: Record<string, unknown>; outputs: Record<string, { bytes: number }> }> };
      const meta = await buildCliScript(out);
      const inputs = Object.keys(meta.inputs);
      expect(inputs.some((i) => i.includes('electron/core/lifecycle/stop.ts'))).toBe(true);
      expect(inputs.filter((i) => i.includes('node_modules/@kubernetes/client-node/'))).toEqual([]);
      const script = readFileSync(join(out, 'k2s-dns-cli.cjs'), 'latin1');
      expect(script).toContain('vendor-client-node.cjs');
      expect(script.length).toBeLessThan(2 * 2 ** 20);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
