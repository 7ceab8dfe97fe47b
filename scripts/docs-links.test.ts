/**
 * Every relative link in README.md and docs/*.md names a file that exists and, with a `#anchor`,
 * a heading of that file (GitHub's slug). The README's depth lives in docs/ and the files link
 * each other: a moved or renamed heading must not leave a link that leads nowhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';

/** The markdown files checked, repo-relative. The generated reports (docs/bench*.md, docs/fault-matrix.md) are checked too. */
const FILES = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`)];

/** The text outside fenced code blocks and code spans (links there are examples, not links). */
export function prose(md: string): string {
  return md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped but `-` and `_`, spaces as `-`. */
export const slug = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\-_ ]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a markdown file's headings; a repeated one gets `-1`, `-2` … as on GitHub. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const noFences = md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of noFences.matchAll(/^#{1,6} +(.*?)#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Each relative link target of a markdown file (links and images), as written. */
export function relativeLinks(md: string): string[] {
  return [...prose(md).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** How the check sees the repository's files (repo-relative paths). */
export interface Files {
  read(rel: string): string;
  kind(rel: string): 'file' | 'dir' | null;
}

const REPO_FILES: Files = {
  read: (rel) => readFileSync(join(REPO, rel), 'utf8'),
  kind: (rel) => (existsSync(join(REPO, rel)) ? (statSync(join(REPO, rel)).isDirectory() ? 'dir' : 'file') : null),
};

/** The broken links of `file` (repo-relative), each as `file: target (why)`. */
export function brokenLinks(file: string, files: Files = REPO_FILES): string[] {
  const out: string[] = [];
  for (const target of relativeLinks(files.read(file))) {
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const rel = path === '' ? file : posix.normalize(posix.join(dirname(file), decodeURI(path)));
    const kind = rel.startsWith('..') ? null : files.kind(rel);
    if (kind === null) {
      out.push(`${file}: ${target} (no file ${rel})`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (kind === 'dir' || !rel.endsWith('.md')) {
      out.push(`${file}: ${target} (an anchor in ${rel}, which is no markdown file)`);
      continue;
    }
    if (!anchors(files.read(rel)).has(decodeURI(anchor))) out.push(`${file}: ${target} (no heading #${anchor} in ${rel})`);
  }
  return out;
}

describe('relative links in README.md and docs/', () => {
  it('GitHub slugs: lower case, punctuation dropped but - and _, spaces as -', () => {
    expect(slug('Quick start: try it in the sandbox, or from a checkout')).toBe('quick-start-try-it-in-the-sandbox-or-from-a-checkout');
    expect(slug("The query log's candidates (`npm run bench:capture`)")).toBe('the-query-logs-candidates-npm-run-benchcapture');
    expect(slug('Do cluster names resolve here? The verdict')).toBe('do-cluster-names-resolve-here-the-verdict');
    expect(slug('The `K2S_DNS_DEBUG` flag')).toBe('the-k2s_dns_debug-flag');
    expect([...anchors('# A\n\n```sh\n# not a heading\n```\n## A\n')]).toEqual(['a', 'a-1']);
  });

  it('finds a broken file and a broken anchor, and skips links in code', () => {
    const files: Record<string, string> = {
      'docs/x.md': '# X\n\n[ok](../README.md) [self](#x) [gone](nope.md) [bad](#nowhere) `[code](nope.md)`\n```\n[fenced](nope.md)\n```\n[web](https://example.org/#a)\n',
    };
    const broken = brokenLinks('docs/x.md', {
      read: (rel) => files[rel] ?? REPO_FILES.read(rel),
      kind: (rel) => (rel in files ? 'file' : REPO_FILES.kind(rel)),
    });
    expect(broken).toEqual(['docs/x.md: nope.md (no file docs/nope.md)', 'docs/x.md: #nowhere (no heading #nowhere in docs/x.md)']);
  });

  it('each names an existing file and, with #anchor, one of its headings', () => {
    expect(FILES).toContain('docs/host-integration.md');
    const all = FILES.flatMap((f) => relativeLinks(readFileSync(join(REPO, f), 'utf8')));
    expect(all.length).toBeGreaterThan(50);
    expect(FILES.flatMap((f) => brokenLinks(f))).toEqual([]);
  });

  // New-user walk 23: docs/bench.md (and its generator) named electron/logs/log-history.ts, which is electron/core/logs/.
  it('each source path a doc or the bench report generator names as text exists', () => {
    const named = (text: string) => [...new Set(text.match(/\b(?:electron|shared|scripts|e2e|renderer)\/[A-Za-z0-9_./-]+\.(?:tsx?|mjs|cjs|sh)\b/g) ?? [])];
    const texts = [...FILES, 'scripts/bench/report.ts'];
    const missing = texts.flatMap((f) => named(readFileSync(join(REPO, f), 'utf8')).filter((p) => !existsSync(join(REPO, p))).map((p) => `${f}: ${p}`));
    expect(named('see electron/core/logs/log-history.ts and shared/fix.ts.')).toEqual(['electron/core/logs/log-history.ts', 'shared/fix.ts']);
    expect(missing).toEqual([]);
  });

  it('the README links every file in docs/ (its "More documentation")', () => {
    const linked = new Set(relativeLinks(readFileSync(join(REPO, 'README.md'), 'utf8')).map((t) => t.split('#')[0]));
    const docs = readdirSync(join(REPO, 'docs')).filter((n) => /\.(md|json)$/.test(n)).map((n) => `docs/${n}`);
    expect(docs.filter((d) => !linked.has(d))).toEqual([]);
  });
});
