/**
 * Status once the capture companion's keeper (host/capture-keeper.ts, hosts without systemd)
 * restarted a dead companion: it says when which PID died and which PID runs now, in the words
 * of the proxy's restarts, not "stopped"; once the keeper gave up (or restarted nothing: status 78),
 * the stop is said with why.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { dnsStatus } from './status';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();

/** A PID that has exited (a companion killed). */
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** A started host whose exact log's companion `dead` was killed; `keeper` the keeper's state text. */
async function restartedHost(dead: number, keeper: string) {
  const h = await newHost('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
  await mkdir(join(h.root, 'run/k2s'), { recursive: true });
  // The killed companion's ready file, left behind (capture-stopped.ts reads it as dead).
  await writeFile(join(h.root, 'run/k2s/capture.ready'), `${dead}\n`);
  await writeFile(join(h.root, 'run/k2s/capture-keeper.state'), keeper);
  return h;
}

describe('status after the capture keeper restarted the companion', () => {
  it('restarted: "At HH:MM:SS UTC the exact query log\'s companion (PID a) was found dead (…); its keeper restarted it as PID b", and no stop', async () => {
    // A live companion (its argv names capture-watch; `; :` keeps sh from exec'ing sleep).
    const live = spawn('/bin/sh', ['-c', 'sleep 30; :', 'capture-watch'], { stdio: 'ignore' });
    onTestFinished(() => void live.kill('SIGKILL'));
    await new Promise((r) => live.once('spawn', r));
    const dead = deadPid();
    const h = await restartedHost(dead, `restarts=1\nstate=running\nlast-exit=137\nlast-exit-at=1764874212\nlast-pid=${dead}\npid=${live.pid}\n`);
    const s = await dnsStatus(h.deps);
    expect(s.messages).toContain(`At 18:50:12 UTC the exact query log's companion (PID ${dead}) was found dead (killed by signal KILL (exit status 137)); its keeper restarted it as PID ${live.pid}.`);
    expect(s.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([]);
  });

  it('gave up: the stop is said, with the keeper\'s limit and the last exit, and Start as the fix', async () => {
    const dead = deadPid();
    const h = await restartedHost(dead, `restarts=7\nstate=gave-up\nlast-exit=1\nlast-exit-at=1764874212\nlast-pid=${dead}\npid=\n`);
    const s = await dnsStatus(h.deps);
    expect(s.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([
      expect.stringMatching(new RegExp(`^The exact query log stopped: its companion \\(capture-watch, PID ${dead}\\) was found dead at \\S+Z, ended without a word \\(killed: kill -9, the OOM killer\\); its keeper restarted it 6 times in a row, each run ending within 60 s, and gave up \\(the last exited with status 1\\); to restart it, run as root: \`sudo npx k2s-dns start --verify-name www\\.example\\.test\`, or \`su -c 'npx k2s-dns start --verify-name www\\.example\\.test'\` where sudo is not installed\\.$`)),
    ]);
    expect(s.messages.join('\n')).not.toContain('its keeper restarted it as');
  });

  it('status 78 (bad flags: the keeper restarts nothing): the stop in the companion\'s words, the keeper\'s no-restart, and Start as the fix', async () => {
    const dead = deadPid();
    const h = await restartedHost(dead, `restarts=0\nstate=exited\nlast-exit=78\nlast-exit-at=1764874212\nlast-pid=${dead}\npid=\n`);
    await writeFile(join(h.root, 'run/k2s/capture.failed'), '2026-12-06T10:00:00.000Z not a go line: "x"\nexit=78\n');
    const s = await dnsStatus(h.deps);
    expect(s.messages.filter((m) => m.startsWith('The exact query log stopped'))).toEqual([
      'The exact query log stopped at 2026-12-06T10:00:00.000Z: not a go line: "x"; its keeper did not restart it: its last run exited with status 78, its flags being bad (a restart reads the same; the next start of K2s DNS writes them); to restart it, run as root: `sudo npx k2s-dns start --verify-name www.example.test`, or `su -c \'npx k2s-dns start --verify-name www.example.test\'` where sudo is not installed.',
    ]);
  });
});
