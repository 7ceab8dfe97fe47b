import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CAPTURE_UNIT_NAME } from '../../shared/capture-unit';
import { FOLLOW_UNIT_NAME } from '../../shared/systemd-unit';
import { CAPTURE_VERB } from '../core/capture/capture-args';
import { FOLLOW_VERB } from '../core/host/follower';
import { INTERNAL_VERBS, internalHelp, internalVerbHelp } from '../core/internal-help';
import { runMain as run } from './run-main.fixture';
import { USAGE } from './usage';

describe('internal verbs answer --help (breaker pass: capture-watch --help said "--help needs a value")', () => {
  it('names the verbs and units as the code does', () => {
    expect([...INTERNAL_VERBS].sort()).toEqual([CAPTURE_VERB, FOLLOW_VERB].sort());
    expect(internalVerbHelp(CAPTURE_VERB)).toContain(`the systemd unit ${CAPTURE_UNIT_NAME},`);
    expect(internalVerbHelp(FOLLOW_VERB)).toContain(`the systemd unit ${FOLLOW_UNIT_NAME},`);
    expect(USAGE).not.toContain(CAPTURE_VERB);
  });

  it('capture-watch --help / -h, also after other flags: says it is internal and what runs it, exit 0', async () => {
    for (const args of [['capture-watch', '--help'], ['capture-watch', '-h'], ['capture-watch', '--listen', '127.0.0.1:53', '--help'], ['help', 'capture-watch'], ['--help', 'capture-watch']]) {
      const r = await run(args);
      expect(r, args.join(' ')).toEqual({ code: 0, stdout: internalVerbHelp(CAPTURE_VERB), stderr: '' });
    }
    expect(internalVerbHelp(CAPTURE_VERB)).toMatch(/^k2s-dns capture-watch is internal: the exact query log's packet capture, which k2s-dns start\nruns as root/);
  });

  it('follow-watch --help: its own text (it printed the whole help, which does not list it), exit 0', async () => {
    const r = await run(['follow-watch', '--help']);
    expect(r).toEqual({ code: 0, stdout: internalVerbHelp(FOLLOW_VERB), stderr: '' });
    expect(r.stdout).toMatch(/^k2s-dns follow-watch is internal: the network follower, which k2s-dns start runs as root/);
    expect(r.stdout).toContain('\nExit status: 0 stopped (SIGTERM or SIGINT); 2 any argument; 3 not root.\n');
  });

  it('leaves other arguments to the verb, and other verbs alone', () => {
    expect(internalHelp(CAPTURE_VERB, ['--listen', '127.0.0.1:53', '--port', '53'])).toBeNull();
    expect(internalHelp('status', ['--help'])).toBeNull();
    expect(internalHelp('toString', ['--help'])).toBeNull();
    expect(internalVerbHelp('constructor')).toBeNull();
  });

  it('follow-watch with any other argument is still a usage error (exit 2), as its help says', async () => {
    const r = await run(['follow-watch', '--now']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Unknown option '--now'\. Run (?:npx )?k2s-dns follow-watch --help for usage\.\n$/);
  });

  it("the companion's own bundle entry answers it too (tsx, as the sources run)", () => {
    const entry = fileURLToPath(new URL('../core/capture/capture-watch-entry.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', entry, CAPTURE_VERB, '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: internalVerbHelp(CAPTURE_VERB), stderr: '' });
  }, 70_000);
});
