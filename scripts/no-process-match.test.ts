/**
 * Safety lint: nothing under e2e/ or scripts/ finds or signals processes by name (pgrep, pkill,
 * killall). The sandbox shares this machine with other engineers' test beds, and a name matches
 * their processes too: a test once matched another bed's tcpdump with pgrep. A test ends only
 * what it started, by the PID it recorded (a pidfile, a ChildProcess), or everything in its own
 * namespace (`ip netns pids`, e2e/bed/sandbox.sh).
 *
 * Comment lines (`#`, `//`, `*`) may name the tools, so a file can say why it does not use them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';

/** The rooms checked. */
const ROOTS = ['e2e', 'scripts'];
/** Files a command can hide in: code and shell. */
const CODE_FILE = /\.(tsx?|mjs|cjs|js|sh|bash|py)$/;
const SKIP = new Set(['node_modules', 'dist', 'out', '.tools', '.tmp', 'test-results', 'playwright-report']);
/** The tools that match processes by name (procps pgrep(1)/pkill(1), psmisc killall(1)). */
const BY_NAME = /(?<![\w.-])(pgrep|pkill|killall)(?![\w.-])/;

/** The offending lines of `text` as `N: line` (comment lines skipped). */
function processMatchCalls(text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const t = line.trim();
    if (t.startsWith('#') || t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) return [];
    return BY_NAME.test(line) ? [`${i + 1}: ${t}`] : [];
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(REPO, dir)).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const rel = posix.join(dir, name);
    if (statSync(join(REPO, rel)).isDirectory()) return filesUnder(rel);
    return CODE_FILE.test(name) ? [rel] : [];
  });
}

const SELF = 'scripts/no-process-match.test.ts';

describe('no process matching by name under e2e/ and scripts/', () => {
  it('the matcher finds the calls it must and passes comments', () => {
    expect(processMatchCalls("const pid = execFileSync('pgrep', ['-f', 'tcpdump']);")).toHaveLength(1);
    expect(processMatchCalls('  pkill -f dnsproxy || true')).toEqual(['1: pkill -f dnsproxy || true']);
    expect(processMatchCalls('x\nspawn("killall", ["tcpdump"])')).toEqual(['2: spawn("killall", ["tcpdump"])']);
    expect(processMatchCalls('$(pgrep -x coredns)')).toHaveLength(1);
    expect(processMatchCalls('# never pgrep: other beds run here\n// nor pkill\n * nor killall')).toEqual([]);
    expect(processMatchCalls('const pgrepless = 1; my-pkill.sh; killall.txt')).toEqual([]);
  });

  it('no file calls pgrep, pkill or killall', () => {
    const files = ROOTS.flatMap(filesUnder).filter((f) => f !== SELF);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => processMatchCalls(readFileSync(join(REPO, f), 'utf8')).map((l) => `${f}:${l}`));
    expect(found).toEqual([]);
  });

  it('e2e/bed/sandbox.sh runs its command in a PID namespace of its own, with its own /proc', () => {
    const sandbox = readFileSync(join(REPO, 'e2e/bed/sandbox.sh'), 'utf8');
    const run = sandbox.split('\n').find((l) => l.startsWith('ip netns exec') && l.includes('inner.sh'));
    expect(run).toMatch(/ unshare .*--pid --fork --mount-proc .*inner\.sh/);
  });
});
