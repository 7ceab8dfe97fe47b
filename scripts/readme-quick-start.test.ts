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

  it("new user (session 30): `npm start`'s line warns beside it what running it as root does, the sandbox URL says how to reach it from another machine", () => {
    const line = section.split('\n').findIndex((l) => l.startsWith('npm start '));
    expect(line).toBeGreaterThan(0);
    // The warning within the command's own comment (its line and the comment lines below it).
    const comment = section.split('\n').slice(line, line + 3).join('\n');
    expect(comment).toMatch(/as your user, NOT root: run as root, the app asks nothing and its buttons change\s+# this host's real \/etc\/resolv\.conf/);
    expect(section).toContain('`ssh -L PORT:127.0.0.1:PORT host`');
  });

  it('timings are the measured ones with their load (setup 7–9.5 min, npm run package 10–38 s), the same in docs/quick-start.md, and a control named as the fix reads as one', () => {
    expect(README).not.toMatch(/about 7 minutes|deb \(about 20 s\)|in about 20 s|31–34 s/);
    expect(README).toContain('measured 7–9.5 min on a 2-core machine');
    expect(README.match(/10–38 s \(?measured on a 2-core machine, load average 3–9/g)?.length).toBe(2);
    // New user (session 30): quick-start said setup "~5 min" and package "31–34 s" beside the README's figures.
    const page = readFileSync(join(REPO, 'docs', 'quick-start.md'), 'utf8');
    expect(page).not.toMatch(/~5 min|31–34 s/);
    const setup = 'measured 7–9.5 min on a 2-core machine, 9.4 min at load average 8; --no-debian-host: about 2.5 min less';
    expect(page).toContain(setup);
    expect(README.replace(/\s+#\s+/g, ' ')).toContain(setup);
    expect(page).toContain('10–38 s measured on a 2-core machine, load average 3–9');
    expect(page).toContain('sudo npm run try-package');
    expect(README).not.toContain("with the sandbox's API down (`sandbox:ctl -- api up`");
    expect(README).toContain("with the sandbox's API down (`sandbox:ctl -- api down` in the Quick start above)");
  });

  it('every in-page link of the README names one of its headings', () => {
    const anchors = new Set([...README.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!)));
    const links = [...README.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !anchors.has(l))).toEqual([]);
  });
});
