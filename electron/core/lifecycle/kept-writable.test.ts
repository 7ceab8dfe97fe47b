/**
 * Walk 11 L8: `stop --on-drift keep` keeping a file a user could write (the follower's owner rule)
 * ends with the warning KEPT_RESOLV_CONF_WRITABLE naming the fix, and a stopped `status` keeps
 * saying it: the /etc/resolv.conf hop drawn `!` and a note with the same fix (it said only "mode
 * 0644 → 0666" once, and only doctor warned after).
 */
import { describe, expect, it } from 'vitest';
import { chmod, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { followNetwork } from './follow';
import { setCliName } from '../../../shared/fix';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { healthProbes } from '../health/probes';
import { statusWithHealth } from '../health/status-with-health';
import { formatStatus, printEvent } from '../../cli/print';
import { statusExitCode } from '../../../shared/status-exit';

const newHost = trackedHosts();
const sink = () => undefined;

/** Started, then another program's valid file put over /etc/resolv.conf by rename with `mode`. */
async function drifted(mode: number) {
  setCliName('k2s-dns');
  const h = await newHost('nameserver 192.0.2.53\n');
  expect((await startDns(h.deps, TEST_START_OPTS, sink)).ok).toBe(true);
  const tmp = join(h.root, 'etc/resolv.conf.tmp');
  await writeFile(tmp, '# written by othertool\nnameserver 192.0.2.53\n');
  await chmod(tmp, mode);
  await rename(tmp, join(h.root, 'etc/resolv.conf'));
  await followNetwork(h.deps);
  return h;
}

const WARNING = "The kept /etc/resolv.conf is writable by every user (mode 0666): whoever may write it can choose this host's DNS, and a start would save it as your original as it is (warning RESOLV_CONF_WRITABLE). Fix it with `sudo chmod o-w /etc/resolv.conf`.";

describe('stop --on-drift keep of a file a user could write', () => {
  it('0666: exit 0 with the warning KEPT_RESOLV_CONF_WRITABLE and its fix, printed once', async () => {
    const h = await drifted(0o666);
    const out: string[] = [];
    const printed = { steps: [] };
    const r = await stopDns(h.deps, { onDrift: 'keep' }, (e) => printEvent(e as never, false, (s) => out.push(s), printed));
    expect(r).toMatchObject({ ok: true, exitCode: 0, warnings: [{ code: 'KEPT_RESOLV_CONF_WRITABLE', message: WARNING }] });
    printEvent(r, false, (s) => out.push(s), printed);
    expect(out.slice(-2)).toEqual(['OK, WITH WARNINGS: K2s DNS is stopped. See the restore step above and the warning below.', `warning [KEPT_RESOLV_CONF_WRITABLE]: ${WARNING}`]);
  });

  it('stopped afterwards: status draws the /etc/resolv.conf hop `!`, names the mode and gives the fix in a note', async () => {
    const h = await drifted(0o666);
    await stopDns(h.deps, { onDrift: 'keep' }, sink);
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.resolverWritable).toBe('writable by every user (mode 0666)');
    const text = formatStatus(s);
    expect(text).toContain("\n  ! /etc/resolv.conf: host's own (nameservers 192.0.2.53), writable by every user (mode 0666)\n");
    expect(text).toContain('\nnote: /etc/resolv.conf is writable by every user (mode 0666): a start saves it as your original as it is (warning RESOLV_CONF_WRITABLE), stop puts it back so, and a user can choose this host\'s DNS through it. Run `sudo chmod o-w /etc/resolv.conf` before starting.');
    expect(text.split('chmod o-w').length - 1).toBe(1);
    // A warning, not a fault: stopped and resolving, status exits 0 as before.
    expect(statusExitCode(s)).toBe(0);
  });

  it('0644 (a file the follower would take): no warning, the hop stays ✓, no note', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    setCliName('k2s-dns');
    expect((await startDns(h.deps, { ...TEST_START_OPTS, onNetworkChange: 'keep' }, sink)).ok).toBe(true);
    await writeFile(join(h.root, 'etc/resolv.conf'), '# written by othertool\nnameserver 192.0.2.53\n');
    const r = await stopDns(h.deps, { onDrift: 'keep' }, sink);
    expect(r.warnings ?? []).toEqual([]);
    const s = await statusWithHealth(healthProbes(h.deps), 'cli');
    expect(s.resolverWritable).toBeUndefined();
    expect(formatStatus(s)).toContain("\n  ✓ /etc/resolv.conf: host's own (nameservers 192.0.2.53)\n");
  });
});
