import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyDenial, denialResult } from './pkexec-denial';
import { runHelper, type LauncherOptions } from './launcher';

// pkexec 122's own words (strings of Debian's /usr/bin/pkexec 122-3; pkexec.c).
const NOT_AUTHORIZED = 'Error executing command as another user: Not authorized\n\nThis incident has been reported.\n';
const NO_AGENT = 'Error executing command as another user: No authentication agent found.\n';
const DISMISSED = 'Error executing command as another user: Request dismissed\n';
// polkit 126 on the Debian 13 bed, pkexec run from a service (no agent, no terminal).
const NO_TTY = "Error creating textual authentication agent: Error opening current controlling terminal for the process (`/dev/tty'): No such device or address\n";

describe('a denied pkexec request says which denial it was', () => {
  it.each([
    [126, DISMISSED, 'AUTH_DISMISSED'],
    [127, NOT_AUTHORIZED, 'AUTH_NOT_AUTHORIZED'],
    [127, NO_AGENT, 'AUTH_NO_AGENT'],
    [127, NO_TTY, 'AUTH_NO_AGENT'],
    [127, 'Error accessing /usr/lib/k2s-dns/k2s-dns-helper: No such file or directory\n', null],
    [1, 'TypeError: x\n', null],
  ] as const)('exit %s %j → %s', (code, stderr, want) => {
    expect(classifyDenial(code, stderr)).toBe(want);
  });

  it('each denial is a refusal (exit 3) with its own remedy; a helper failure stays exit 1', () => {
    const r = (code: number, stderr: string) => denialResult({ verb: 'start' }, 'pkexec', code, stderr);
    expect(r(126, DISMISSED)).toMatchObject({ ok: false, exitCode: 3, code: 'AUTH_DISMISSED' });
    expect(r(126, DISMISSED).message).toContain('enter an administrator password');
    expect(r(127, NOT_AUTHORIZED).message).toContain('/etc/polkit-1/rules.d');
    expect(r(127, NOT_AUTHORIZED).message).not.toContain('enter an administrator password');
    // Walk 7 M4: the PID pkttyagent answers for is this app's, printed as is (no `<PID of the app>`).
    expect(r(127, NO_AGENT).message).toContain(`or run \`pkttyagent --process ${process.pid}\` (this app's PID) in a terminal to answer there`);
    expect(denialResult({ verb: 'start' }, 'pkexec', 127, NO_AGENT, 4242).message).toContain('`pkttyagent --process 4242`');
    expect(r(127, NO_AGENT).message).not.toContain('<');
    for (const d of [r(126, DISMISSED), r(127, NOT_AUTHORIZED), r(127, NO_AGENT)]) expect(d.message).toMatch(/ Nothing changed\.$/);
    expect(r(1, 'boom')).toMatchObject({ exitCode: 1, code: 'HELPER_FAILED' });
    expect(r(1, 'boom').message).toContain('boom');
    // Run directly as root there is no pkexec: its exit codes mean nothing.
    expect(denialResult({ verb: 'stop' }, 'direct', 126, DISMISSED).code).toBe('HELPER_FAILED');
  });

  const tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-pkexec-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each([
    [126, DISMISSED, 'AUTH_DISMISSED'],
    [127, NOT_AUTHORIZED, 'AUTH_NOT_AUTHORIZED'],
    [127, NO_AGENT, 'AUTH_NO_AGENT'],
  ] as const)('through runHelper: a stand-in pkexec exiting %s with %j gives %s', async (code, stderr, want) => {
    const fake = join(tmp, `pkexec-${code}-${want}`);
    writeFileSync(fake, `#!/bin/sh\nprintf '%s' '${stderr.replace(/'/g, "'\\''")}' >&2\nexit ${code}\n`);
    chmodSync(fake, 0o755);
    const o: LauncherOptions = { uid: 1000, nodePath: '/nonexistent/node', helperScript: '/nonexistent/h.mjs', installedHelper: '/usr/lib/k2s-dns/k2s-dns-helper', pkexec: fake, installGap: () => null };
    expect(await runHelper(o, { verb: 'start' }, () => undefined)).toMatchObject({ op: 'start', exitCode: 3, code: want });
  });
});
