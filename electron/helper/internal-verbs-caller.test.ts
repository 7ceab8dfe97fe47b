/**
 * The internal verbs reached by a caller: the helper (what the polkit action runs) and the CLI
 * (what a sudo rule runs) took `capture-watch --listen … --port …` (a root tcpdump on ports the
 * caller chose, writing the companion's status files) and `follow-watch` from anyone pkexec or
 * sudo let through, checking only that they ran as root. Both now refuse them while PKEXEC_UID
 * or SUDO_UID is set. The verbs' own code is mocked: nothing here touches the host.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ran = vi.hoisted(() => ({ capture: [] as string[][], follow: 0 }));
vi.mock('../core/lifecycle/node-deps', () => ({ createNodeDeps: async () => ({}) }));
vi.mock('../core/host/host-fs-node', () => ({ createHostFs: () => ({}) }));
vi.mock('../core/capture/capture-main', () => ({
  runCapture: async (_fs: unknown, _uid: number, args: string[]) => (ran.capture.push(args), 0),
}));
vi.mock('../core/lifecycle/follow-main', () => ({ runFollower: async () => (ran.follow++, 0) }));

import { helperMain } from './main';
import { runInternalVerb } from '../cli/internal-verbs';

const KEYS = ['PKEXEC_UID', 'SUDO_UID', 'SUDO_USER'] as const;
const CAPTURE = ['capture-watch', '--listen', '127.0.0.1:22', '--port', '22'];
let saved: Record<string, string | undefined>;
let stderr: string[];
beforeEach(() => {
  saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  for (const k of KEYS) delete process.env[k];
  ran.capture.length = 0;
  ran.follow = 0;
  stderr = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (stderr.push(String(s)), true));
  vi.spyOn(process, 'getuid').mockReturnValue(0);
});
afterEach(() => {
  for (const k of KEYS) if (saved[k] === undefined) delete process.env[k];
  else process.env[k] = saved[k];
  vi.restoreAllMocks();
});

describe('internal verbs are refused to a pkexec or sudo caller', () => {
  it('helper: capture-watch and follow-watch with PKEXEC_UID set exit 3 with words, and neither runs', async () => {
    process.env.PKEXEC_UID = '1000';
    expect(await helperMain(CAPTURE)).toBe(3);
    expect(await helperMain(['follow-watch'])).toBe(3);
    expect(stderr).toEqual([
      '`capture-watch` is internal to k2s-dns: only its own start runs it, never through pkexec (PKEXEC_UID is set). Use the start and stop commands.\n',
      '`follow-watch` is internal to k2s-dns: only its own start runs it, never through pkexec (PKEXEC_UID is set). Use the start and stop commands.\n',
    ]);
    expect(ran).toEqual({ capture: [], follow: 0 });
  });

  it('helper: SUDO_UID set (even 0) refuses them too; without either variable (start\'s own spawn) they run', async () => {
    process.env.SUDO_UID = '0';
    expect(await helperMain(['follow-watch'])).toBe(3);
    expect(ran.follow).toBe(0);
    delete process.env.SUDO_UID;
    expect(await helperMain(CAPTURE)).toBe(0);
    expect(await helperMain(['follow-watch'])).toBe(0);
    expect(ran).toEqual({ capture: [CAPTURE.slice(1)], follow: 1 });
  });

  it('CLI (`sudo k2s-dns capture-watch …`): refused with SUDO_UID set, runs without', async () => {
    process.env.SUDO_UID = '1000';
    process.env.SUDO_USER = 'alice';
    expect(await runInternalVerb(CAPTURE)).toBe(3);
    expect(await runInternalVerb(['follow-watch'])).toBe(3);
    expect(stderr.join('')).toContain('`capture-watch` is internal to k2s-dns: only its own start runs it, never through sudo (SUDO_UID is set).');
    expect(ran).toEqual({ capture: [], follow: 0 });
    delete process.env.SUDO_UID;
    delete process.env.SUDO_USER;
    expect(await runInternalVerb(CAPTURE)).toBe(0);
    expect(ran.capture).toEqual([CAPTURE.slice(1)]);
  });
});
