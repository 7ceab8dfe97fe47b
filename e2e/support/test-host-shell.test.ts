import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFakeProc } from './fake-proc';
import { processIdentity } from './outer-pid';
import { findTestHost, hostShellLines, TEST_HOST_INIT } from './test-host-shell';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

const HOST_MNT = 'mnt:[4026532898]';
/** As try-package met it: sandbox.sh 100 → inner.sh (sandbox PID 1) → the host's systemd, `NSpid: 11589 82 1`; 82 out here is a kernel thread. */
async function sandboxWithHost(init = { argv: [TEST_HOST_INIT, '--system'], nspid: [11589, 82, 1] }): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'test-host-shell-'));
  return writeFakeProc(dir, {
    100: [[100], [102]],
    102: [[102, 1], [11589]],
    11589: { nspid: init.nspid, kids: [], argv: init.argv, comm: 'systemd', start: 777, pidNs: 'pid:[4026532900]', mntNs: HOST_MNT },
    82: { nspid: [82], kids: [], comm: 'cpuhp/1' },
  });
}

describe('findTestHost', () => {
  it("gives the host systemd's PID out here (11589), never the sandbox's number (82)", async () => {
    const proc = await sandboxWithHost();
    const t = await findTestHost(100, 82, proc);
    expect(t?.pid).toBe(11589);
    expect(t?.identity).toEqual({ pidNs: 'pid:[4026532900]', mntNs: HOST_MNT, startTicks: '777', nspid: [11589, 82, 1] });
  });

  it('gives null when the process found is not an init running the test host systemd', async () => {
    expect(await findTestHost(100, 82, await sandboxWithHost({ argv: ['/bin/bash'], nspid: [11589, 82, 1] }))).toBeNull();
    await rm(dir, { recursive: true });
    expect(await findTestHost(100, 82, await sandboxWithHost({ argv: [TEST_HOST_INIT], nspid: [11589, 82] }))).toBeNull();
    await rm(dir, { recursive: true });
    expect(await findTestHost(100, 83, await sandboxWithHost())).toBeNull();
  });
});

describe('hostShellLines', () => {
  it('names the outside PID and checks its mount namespace and start time first', async () => {
    const t = (await findTestHost(100, 82, await sandboxWithHost()))!;
    const [ada, root] = hostShellLines(t, 'ada');
    expect(root).toBe(`  as root: [ "$(readlink /proc/11589/ns/mnt 2>/dev/null) $(cut -d' ' -f22 /proc/11589/stat 2>/dev/null)" = '${HOST_MNT} 777' ] || { echo 'PID 11589 is not the test host any more' >&2; false; } && nsenter -t 11589 -m -u -p -n -C -r -w -- bash -l`);
    expect(ada).toContain('nsenter -t 11589 -m -u -p -n -C -r -w -- runuser -l ada');
    expect(root).not.toMatch(/-t 82\b/);
  });

  /** The printed root line run by sh, with nsenter replaced by echo; this test's own PID is the target (or `pid`). */
  function runGuarded(mntNs: string, startTicks: string, pid = process.pid) {
    const line = hostShellLines({ pid, identity: { pidNs: 'pid:[1]', mntNs, startTicks, nspid: [process.pid] } }, 'ada')[1]!;
    return spawnSync('sh', ['-c', line.replace(/^ {2}as root: /, '').replace('nsenter', 'echo would-run nsenter')], { encoding: 'utf8' });
  }

  it("the printed guard runs the line only for the recorded process: same mount namespace and start time (sh runs it on this test's own PID)", async () => {
    const me = (await processIdentity(process.pid))!;
    expect(runGuarded(me.mntNs, me.startTicks).stdout).toBe(`would-run nsenter -t ${process.pid} -m -u -p -n -C -r -w -- bash -l\n`);
    for (const [mnt, start] of [[HOST_MNT, me.startTicks], [me.mntNs, String(Number(me.startTicks) + 1)]] as const) {
      const r = runGuarded(mnt, start);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`PID ${process.pid} is not the test host any more\n`);
      expect(r.status).not.toBe(0);
    }
  });

  it('pasted after the run (the PID is gone): only the refusal, no `cut: /proc/PID/stat: No such file or directory` before it', () => {
    // Above pid_max (4194304 at most, proc(5)): no such process can exist.
    const gone = 4_194_305;
    const r = runGuarded(HOST_MNT, '777', gone);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`PID ${gone} is not the test host any more\n`);
    expect(r.status).not.toBe(0);
  });
});
