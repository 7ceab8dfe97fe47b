/**
 * docs/quick-start.md, the one page a new user reads first (new user: the README is ~780 dense
 * lines): short, its five steps in order, linked from the README's top, and every `k2s-dns` line
 * in it a command and flags the CLI has (electron/cli/usage.ts), so it works as written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';
import { commandUsage, HELP_VERBS } from '../electron/cli/usage';

const PAGE = readFileSync(join(REPO, 'docs', 'quick-start.md'), 'utf8');
const README = readFileSync(join(REPO, 'README.md'), 'utf8');

describe('docs/quick-start.md', () => {
  it('is at most 60 lines, with install, start, check, stop and when it fails in that order', () => {
    expect(PAGE.trimEnd().split('\n').length).toBeLessThanOrEqual(60);
    const headings = [...PAGE.matchAll(/^## (.*)$/gm)].map((m) => m[1]!);
    expect(headings).toEqual(['1. Install (Debian/Ubuntu, from a checkout)', '2. Start', '3. Check that a cluster name resolves', '4. Stop', '5. When it fails']);
  });

  it("is linked from the README's first 30 lines", () => {
    expect(README.split('\n').slice(0, 30).join('\n')).toContain('](docs/quick-start.md)');
  });

  it('names only commands and flags the CLI has', () => {
    // The commands: fenced blocks and code spans (the prose says "k2s-dns makes …").
    const code = [...PAGE.matchAll(/^```sh\n([\s\S]*?)^```$/gm), ...PAGE.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).join('\n');
    const lines = [...code.matchAll(/k2s-dns ([a-z]+)((?: --?[a-z-]+(?: [A-Z]+)?)*)/g)];
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const [whole, verb, flags] of lines) {
      expect(HELP_VERBS, whole).toContain(verb);
      for (const flag of flags!.match(/--[a-z-]+/g) ?? []) expect(commandUsage(verb as (typeof HELP_VERBS)[number]), whole).toContain(flag);
    }
  });
});
