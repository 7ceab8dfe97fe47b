/**
 * The README's Options list and each command's synopsis in `--help` (and so the man page, which
 * is that text: scripts/package/texts.ts) give a flag the same value (new-user walk: `--upstream
 * IP[:PORT]` in the README, `--upstream IP` in the help, while the CLI takes a port).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';
import { commandUsage, HELP_VERBS } from '../electron/cli/usage';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The README's Options bullet that lists `verb` (`- \`stop\`, \`uninstall\`: …`), to the next bullet; null if none. */
function readmeBullet(verb: string): string | null {
  const m = new RegExp(`^- (?:\`[a-z]+\`, )*\`${verb}(?: NAME)?\`(?:, \`[a-z]+\`)*:[\\s\\S]*?(?=^- |^$)`, 'm').exec(README);
  return m ? m[0].replace(/\s+/g, ' ') : null;
}

/** Each `[--flag VALUE]` of `verb`'s synopsis as `--flag VALUE` (`--json` aside: README says every command takes it). */
function synopsisFlags(verb: (typeof HELP_VERBS)[number]): string[] {
  const synopsis = commandUsage(verb).split('\n\n')[0]!;
  return [...synopsis.matchAll(/\[(--[a-z-]+(?: \S+?)?)\](?=[\s.]|$)/g)].map((m) => m[1]!).filter((f) => f !== '--json');
}

describe('README Options and each command\'s --help synopsis', () => {
  it('give every flag the same value: `--upstream IP[:PORT]` in both (the help said IP)', () => {
    expect(synopsisFlags('start')).toContain('--upstream IP[:PORT]');
    let compared = 0;
    for (const verb of HELP_VERBS) {
      const bullet = readmeBullet(verb);
      if (bullet === null) continue;
      for (const flag of synopsisFlags(verb)) {
        expect(bullet, `${verb} ${flag}`).toContain(`\`${flag}\``);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(15);
  });

  it('left28 #7: a command whose --help says it changes something as root (status: it finishes or rolls back a killed operation) says so on its line of the README\'s CLI list', () => {
    const block = /^```sh\nnpx k2s-dns zones[\s\S]*?^```$/m.exec(README)?.[0] ?? '';
    let checked = 0;
    for (const verb of HELP_VERBS) {
      if (!/except as root/.test(commandUsage(verb))) continue;
      const line = block.split('\n').find((l) => l.startsWith(`npx k2s-dns ${verb} `));
      expect(line, verb).toMatch(/as root it first finishes or rolls back an operation that was killed/);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(1);
  });
});
