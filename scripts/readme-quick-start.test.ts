/**
 * The README's Quick start puts what to do first (walk 16: ~40 lines of the sandbox's internals
 * stood before "Press Start"): its numbered steps come before any long paragraph, the internals
 * sit under "What the sandbox is", and every `](#anchor)` link in the README names a heading
 * (GitHub's slug: lower case, punctuation dropped, spaces as `-`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** GitHub's anchor of a heading's text. */
const slug = (heading: string): string => heading.toLowerCase().replace(/[^\p{L}\p{N}\- ]/gu, '').replace(/ /g, '-');

describe('README Quick start', () => {
  const start = README.indexOf('## Quick start');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));

  it('lists the steps (Start, the Query tester, Stop) before the internals, which have their own heading', () => {
    const press = section.indexOf('Press **Start**');
    const internals = section.indexOf('### What the sandbox is');
    expect(press).toBeGreaterThan(0);
    expect(internals).toBeGreaterThan(press);
    expect(section.slice(0, internals).match(/^\d\. /gm)?.length).toBeGreaterThanOrEqual(5);
    // No paragraph before the steps longer than 10 lines.
    const before = section.slice(0, press).replace(/```[\s\S]*?```/g, '');
    expect(Math.max(...before.split(/\n\n/).map((p) => p.split('\n').length))).toBeLessThanOrEqual(10);
  });

  it('every in-page link of the README names one of its headings', () => {
    const anchors = new Set([...README.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!)));
    const links = [...README.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !anchors.has(l))).toEqual([]);
  });
});
