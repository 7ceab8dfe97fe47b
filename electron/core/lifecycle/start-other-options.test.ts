/**
 * A start while K2s DNS runs does not change it: asked for other upstreams or another
 * network-change policy (the fix the degraded verdict offered), it used to say "already running;
 * nothing changed" with exit 0 while the dead upstream stayed (second new-user walk, high). Now
 * it is refused, naming what differs and the way (stop, then start). Fourth walk: an explicit
 * `--engine` is such an option too (M3), and the fixes status prints start K2s DNS again with the
 * options it runs with (M2).
 */
import { describe, expect, it } from 'vitest';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { otherOptions, startDns } from './start';
import { startedWithOf, startOptionsOf } from './options';
import { dnsStatus } from './status';
import { stopDns } from './stop';
import { cliCommand, setCliRunningStart } from '../../../shared/fix';
import { fixText } from '../../../shared/health';
import { readState } from '../host/resolver-state';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { printEvent, type PrintedSteps } from '../../cli/print';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';
import { stateFileProblem, type ResolverStateFile } from '../../../shared/state-file';
import { KUBESWITCH_NONE_REASON } from '../../../shared/running-start';

const newHost = trackedHosts();

describe('start while running with other options', () => {
  it('--upstream and --on-network-change keep while running with the discovered upstream and follow: RUNNING_OTHER_OPTIONS, exit 3, nothing changed', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const managed = await readFile(join(h.root, 'etc/resolv.conf'));
    const r = await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.54'], onNetworkChange: 'keep' }, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
    expect(r.message).toBe('K2s DNS is already running with other options (upstreams 192.0.2.54 asked, 192.0.2.53 running; network changes: keep asked, follow running); nothing changed. A start does not change a running K2s DNS: to use these options, run sudo npx k2s-dns stop && sudo npx k2s-dns start --upstream 192.0.2.54 --verify-name www.example.test --on-network-change keep');
    expect(await readFile(join(h.root, 'etc/resolv.conf'))).toEqual(managed);
    // The same options as running: still the plain "nothing changed", exit 0.
    expect(await startDns(h.deps, { ...TEST_START_OPTS, upstreams: ['192.0.2.53'] }, () => undefined)).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
  });

  it("walk 6 L7: the refusal is the preflight step's failure — the CLI prints ✗ preflight, never ✓ preflight before REFUSED", async () => {
    const { h, cli } = await dnsmasqRunning();
    const events: LifecycleEvent[] = [];
    const r = await startDns(h.deps, cli({ engine: 'adguard' }), (e) => events.push(e));
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
    const steps = events.filter((e) => e.type === 'step').map((e) => `${e.step} ${e.status}`);
    expect(steps).toEqual(['preflight running', 'preflight failed']);
    const printed: string[] = [];
    const memory: PrintedSteps = { steps: [] };
    for (const e of events) printEvent(e, false, (l) => printed.push(l), memory);
    // One message per fact (walk 10 L1): the result line names the outcome and code, not the text again.
    expect(printed).toEqual([`✗ preflight    ${r.message}`, 'REFUSED [RUNNING_OTHER_OPTIONS]: see the preflight step above.']);
    expect(printed.join('\n')).not.toContain('✓');
  });

  it('otherOptions: nothing asked, or no state, is nothing other', () => {
    expect(otherOptions({}, null)).toEqual([]);
    expect(otherOptions({ upstreams: ['192.0.2.54'] }, null)).toEqual([]);
    expect(otherOptions({ engine: 'adguard', engineExplicit: true }, null)).toEqual([]);
  });

  /** A running AdGuard start's state: KubeSwitch listener 172.19.1.1, corp.example allowed, started with no option. */
  const running: ResolverStateFile = {
    version: 1,
    writtenBy: 'k2s-dns',
    savedAt: '2026-12-06T20:00:00.000Z',
    resolvConf: { kind: 'absent' },
    upstreams: ['192.0.2.53'],
    resolvedDropIn: false,
    engine: 'adguard',
    listeners: [
      { address: '127.0.0.1', port: 53 },
      { address: '172.19.1.1', port: 53 },
    ],
    skippedListeners: [],
    clusterDomain: 'cluster.local',
    kubeDnsIp: '10.96.0.10',
    kubernetesServiceIp: '10.96.0.1',
    managedResolvConfSha256: null,
    startedWith: {},
    allowedZones: ['corp.example'],
    onNetworkChange: 'follow',
    engineBinary: '/opt/k2s/bin/dnsproxy',
  };

  it('otherOptions --no-log-queries: asked while the query log runs is refused with its words; asked as running, or not asked, is not', () => {
    expect(otherOptions({ logQueries: false }, running)).toEqual(['query log: off asked, on running']);
    expect(otherOptions({ logQueries: false }, { ...running, startedWith: { logQueries: false } })).toEqual([]);
    expect(otherOptions({ logQueries: true }, { ...running, startedWith: { logQueries: false } })).toEqual(['query log: on asked, off running']);
    expect(otherOptions({}, { ...running, startedWith: { logQueries: false } })).toEqual([]);
    // A state of an earlier version (no startedWith) does not record it: never refused.
    const { startedWith: _w, ...older } = running;
    expect(otherOptions({ logQueries: false }, older)).toEqual([]);
  });

  it('otherOptions --kubeswitch (CLI): another listener asked is refused; the running one, or the address its start asked for, is not; the window\'s stored choice never', () => {
    const cli = { cliDoor: true } as const;
    expect(otherOptions({ ...cli, kubeSwitch: 'none' }, running)).toEqual(['KubeSwitch listener: none asked, 172.19.1.1 running']);
    expect(otherOptions({ ...cli, kubeSwitch: '172.19.1.2' }, running)).toEqual(['KubeSwitch listener: 172.19.1.2 asked, 172.19.1.1 running']);
    expect(otherOptions({ ...cli, kubeSwitch: '172.19.1.1' }, running)).toEqual([]);
    const noneRunning = { ...running, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [{ address: 'KubeSwitch', reason: KUBESWITCH_NONE_REASON }], startedWith: { kubeSwitch: 'none' } };
    expect(otherOptions({ ...cli, kubeSwitch: 'none' }, noneRunning)).toEqual([]);
    expect(otherOptions({ ...cli, kubeSwitch: '172.19.1.1' }, noneRunning)).toEqual(['KubeSwitch listener: 172.19.1.1 asked, none running']);
    // The default address asked, not assigned when K2s DNS started (no listener): the same ask, not refused.
    const unassigned = { ...running, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [{ address: '172.19.1.1', reason: 'not assigned on this host' }] };
    expect(otherOptions({ ...cli, kubeSwitch: '172.19.1.1' }, unassigned)).toEqual([]);
    expect(otherOptions({ ...cli, kubeSwitch: 'none' }, unassigned)).toEqual([]);
    expect(otherOptions({ cliDoor: true }, running)).toEqual([]);
    // The window's KubeSwitch choice is sent with every Start (renderer/src/lib/start-input.ts): not compared.
    expect(otherOptions({ kubeSwitch: 'none' }, running)).toEqual([]);
  });

  it('otherOptions --allow-zone (CLI): a zone the running start did not allow is refused; one it allowed or was asked for is not; the window\'s allows never; a state without allowedZones never', () => {
    const cli = { cliDoor: true } as const;
    expect(otherOptions({ ...cli, allowZones: ['lab.example'] }, running)).toEqual(['allowed zones: lab.example asked, corp.example running']);
    expect(otherOptions({ ...cli, allowZones: ['lab.example'] }, { ...running, allowedZones: [] })).toEqual(['allowed zones: lab.example asked, none running']);
    expect(otherOptions({ ...cli, allowZones: ['corp.example', 'Corp.Example.'] }, running)).toEqual([]);
    // Asked at the running start but it forwarded nothing (ALLOW_ZONE_UNUSED): the same ask.
    expect(otherOptions({ ...cli, allowZones: ['typo.example'] }, { ...running, startedWith: { allowZones: ['typo.example'] } })).toEqual([]);
    expect(otherOptions({ allowZones: ['lab.example'] }, running)).toEqual([]);
    const { allowedZones: _a, ...older } = running;
    expect(otherOptions({ ...cli, allowZones: ['lab.example'] }, older)).toEqual([]);
  });

  it('otherOptions --dnsproxy: another binary for the running AdGuard is refused; the running one is not; for a running dnsmasq it is when this start would run AdGuard; a state without engineBinary never', () => {
    expect(otherOptions({ dnsproxyPath: '/home/u/dnsproxy' }, running, { engine: 'adguard', binary: '/home/u/dnsproxy' })).toEqual(['dnsproxy /home/u/dnsproxy asked, /opt/k2s/bin/dnsproxy running']);
    expect(otherOptions({ dnsproxyPath: '/opt/k2s/bin/dnsproxy' }, running, { engine: 'adguard', binary: '/opt/k2s/bin/dnsproxy' })).toEqual([]);
    expect(otherOptions({ dnsproxyPath: '/home/u/dnsproxy' }, running)).toEqual(['dnsproxy /home/u/dnsproxy asked, /opt/k2s/bin/dnsproxy running']);
    const dnsmasq = { ...running, engine: 'dnsmasq' as const, engineBinary: '/usr/sbin/dnsmasq' };
    expect(otherOptions({ dnsproxyPath: '/home/u/dnsproxy' }, dnsmasq, { engine: 'adguard', binary: '/home/u/dnsproxy' })).toEqual(['dnsproxy /home/u/dnsproxy asked, dnsmasq running']);
    expect(otherOptions({ dnsproxyPath: '/home/u/dnsproxy', engine: 'dnsmasq', engineExplicit: true }, dnsmasq, { engine: 'dnsmasq', binary: '/usr/sbin/dnsmasq' })).toEqual([]);
    // --engine adguard says it already: one phrase, not two.
    expect(otherOptions({ dnsproxyPath: '/home/u/dnsproxy', engine: 'adguard', engineExplicit: true }, dnsmasq, { engine: 'adguard', binary: '/home/u/dnsproxy' })).toEqual(['engine adguard asked, dnsmasq running']);
    const { engineBinary: _b, ...older } = running;
    expect(otherOptions({ dnsproxyPath: '/home/u/dnsproxy' }, older, { engine: 'adguard', binary: '/home/u/dnsproxy' })).toEqual([]);
  });

  it('the state file keeps the zones a start was asked to allow (startedWith.allowZones), checked on read', () => {
    expect(stateFileProblem({ ...running, startedWith: { allowZones: ['typo.example'] } })).toBeNull();
    expect(stateFileProblem({ ...running, startedWith: { allowZones: 'typo.example' } })).toBe('startedWith.allowZones is not a list of at most 1000 zone names');
    expect(startedWithOf({ kubeconfigPath: null, allowZones: ['typo.example'] })).toEqual({ allowZones: ['typo.example'] });
  });

  it('otherOptions: --verify-name only changes verify, never refused', () => {
    const opts = startOptionsOf({ verifyName: 'www.example.org' }, { path: '/k', tried: [], explicit: false }, 'cli');
    expect(otherOptions(opts, running)).toEqual([]);
  });

  it('finding: `start --no-log-queries` on a running K2s DNS with the query log is refused (RUNNING_OTHER_OPTIONS, exit 3) with the way, nothing changed; the same start line again is not', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    const cli = (input: Parameters<typeof startOptionsOf>[0]) => ({ ...startOptionsOf(input, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli'), verifyExternalName: TEST_START_OPTS.verifyExternalName });
    expect(await startDns(h.deps, cli({}), () => undefined)).toMatchObject({ ok: true });
    const state = await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'));
    const r = await startDns(h.deps, cli({ logQueries: false }), () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
    expect(r.message).toBe('K2s DNS is already running with other options (query log: off asked, on running); nothing changed. A start does not change a running K2s DNS: to use these options, run sudo npx k2s-dns stop && sudo npx k2s-dns start --verify-name www.example.test --no-log-queries');
    expect(await readFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'))).toEqual(state);
    // Started with it: the same line again is "nothing changed", exit 0.
    await stopDns(h.deps, {}, () => undefined);
    expect(await startDns(h.deps, cli({ logQueries: false }), () => undefined)).toMatchObject({ ok: true });
    expect((await readState(h.deps.fs))?.startedWith).toEqual({ logQueries: false, verifyName: 'www.example.test' });
    expect(await startDns(h.deps, cli({ logQueries: false }), () => undefined)).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
  });

  it('a window Start with its stored KubeSwitch choice, allowed zones and engine on a running K2s DNS is not refused', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect(await startDns(h.deps, TEST_START_OPTS, () => undefined)).toMatchObject({ ok: true });
    const window = startOptionsOf({ engine: 'dnsmasq', kubeSwitch: 'none', allowZones: ['lab.example'] }, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false });
    expect(window.cliDoor).toBeUndefined();
    expect(await startDns(h.deps, { ...window, verifyExternalName: TEST_START_OPTS.verifyExternalName }, () => undefined)).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
  });

  /** A host with both engines installed (the fake dnsproxy at K2s's default path), dnsmasq started by `--engine dnsmasq`. */
  async function dnsmasqRunning() {
    const h = await newHost('nameserver 192.0.2.53\n');
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n', { mode: 0o755 });
    const cli = (input: Parameters<typeof startOptionsOf>[0]) => ({ ...startOptionsOf(input, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli'), verifyExternalName: TEST_START_OPTS.verifyExternalName });
    expect(await startDns(h.deps, cli({ engine: 'dnsmasq' }), () => undefined)).toMatchObject({ ok: true });
    expect((await readState(h.deps.fs))?.engine).toBe('dnsmasq');
    return { h, cli };
  }

  it('fourth walk M3: `start --engine adguard` while dnsmasq runs is refused (RUNNING_OTHER_OPTIONS, exit 3), not "nothing changed"', async () => {
    const { h, cli } = await dnsmasqRunning();
    const managed = await readFile(join(h.root, 'etc/resolv.conf'));
    const r = await startDns(h.deps, cli({ engine: 'adguard' }), () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
    expect(r.message).toBe('K2s DNS is already running with other options (engine adguard asked, dnsmasq running); nothing changed. A start does not change a running K2s DNS: to use these options, run sudo npx k2s-dns stop && sudo npx k2s-dns start --engine adguard --verify-name www.example.test');
    expect(await readFile(join(h.root, 'etc/resolv.conf'))).toEqual(managed);
    // The running engine asked again: nothing other.
    expect(await startDns(h.deps, cli({ engine: 'dnsmasq' }), () => undefined)).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
  });

  it('left28 #1: `start --dnsproxy /nonexistent` while AdGuard runs (no dnsmasq installed) says it runs with other options, not NO_ENGINE', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n', { mode: 0o755 });
    await rm(join(h.root, 'usr/sbin/dnsmasq'));
    const cli = (input: Parameters<typeof startOptionsOf>[0]) => ({ ...startOptionsOf(input, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli'), verifyExternalName: TEST_START_OPTS.verifyExternalName });
    expect(await startDns(h.deps, cli({}), () => undefined)).toMatchObject({ ok: true });
    expect((await readState(h.deps.fs))?.engine).toBe('adguard');
    const managed = await readFile(join(h.root, 'etc/resolv.conf'));
    const r = await startDns(h.deps, cli({ dnsproxyPath: '/nonexistent' }), () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
    expect(r.message).toBe('K2s DNS is already running with other options (dnsproxy /nonexistent asked, /opt/k2s/bin/dnsproxy running); nothing changed. A start does not change a running K2s DNS: to use these options, run sudo npx k2s-dns stop && sudo npx k2s-dns start --verify-name www.example.test --dnsproxy /nonexistent');
    expect(await readFile(join(h.root, 'etc/resolv.conf'))).toEqual(managed);
    // Not running: the missing binary is the fact (NO_ENGINE), as before.
    expect(await stopDns(h.deps, {}, () => undefined)).toMatchObject({ ok: true });
    expect(await startDns(h.deps, cli({ dnsproxyPath: '/nonexistent' }), () => undefined)).toMatchObject({ ok: false, exitCode: 3, code: 'NO_ENGINE' });
  });

  it('the same options while running, the engine binary removed since the start: says it runs (nothing changed) and that the binary is gone', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n', { mode: 0o755 });
    await rm(join(h.root, 'usr/sbin/dnsmasq'));
    const cli = (input: Parameters<typeof startOptionsOf>[0]) => ({ ...startOptionsOf(input, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli'), verifyExternalName: TEST_START_OPTS.verifyExternalName });
    expect(await startDns(h.deps, cli({ engine: 'adguard' }), () => undefined)).toMatchObject({ ok: true });
    const managed = await readFile(join(h.root, 'etc/resolv.conf'));
    await rm(join(h.root, 'opt/k2s/bin/dnsproxy'));
    const r = await startDns(h.deps, cli({ engine: 'adguard' }), () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NO_ENGINE' });
    expect(r.message).toMatch(/^K2s DNS is already running; nothing changed\. But its engine is gone: .*\/opt\/k2s\/bin\/dnsproxy.* The running proxy keeps answering; its next restart/);
    expect(await readFile(join(h.root, 'etc/resolv.conf'))).toEqual(managed);
    expect((await readState(h.deps.fs))?.engine).toBe('adguard');
  });

  it('walk 24 #1: one server in two spellings is one upstream — `--upstream 192.0.2.53` on a K2s DNS running 192.0.2.53:53 is not other options', async () => {
    const { h, cli } = await dnsmasqRunning();
    expect(await stopDns(h.deps, {}, () => undefined)).toMatchObject({ ok: true });
    // Started as the window does with its Upstreams field: `192.0.2.53:53`.
    expect(await startDns(h.deps, cli({ engine: 'dnsmasq', upstreams: ['192.0.2.53:53'], onNetworkChange: 'keep' }), () => undefined)).toMatchObject({ ok: true });
    // Named as resolv.conf names it: port 53 left out (left28 #4).
    expect((await readState(h.deps.fs))?.upstreams).toEqual(['192.0.2.53']);
    expect(await startDns(h.deps, cli({ engine: 'dnsmasq', upstreams: ['192.0.2.53'], onNetworkChange: 'keep' }), () => undefined)).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
    // Another port is another server.
    expect(await startDns(h.deps, cli({ engine: 'dnsmasq', upstreams: ['192.0.2.53:5353'], onNetworkChange: 'keep' }), () => undefined)).toMatchObject({ ok: false, exitCode: 3, code: 'RUNNING_OTHER_OPTIONS' });
  });

  it('walk 24 #1: otherOptions compares upstreams as servers (port 53 when none, IPv6 bracketed or not, one server given twice), in order', () => {
    const v6 = { ...running, upstreams: ['[fd00::53]:53', '192.0.2.53:53'] };
    expect(otherOptions({ upstreams: ['fd00::53', '192.0.2.53'] }, v6)).toEqual([]);
    expect(otherOptions({ upstreams: ['fd00::53', '192.0.2.53', '192.0.2.53:53'] }, v6)).toEqual([]);
    expect(otherOptions({ upstreams: ['192.0.2.53', 'fd00::53'] }, v6)).toEqual(['upstreams 192.0.2.53, fd00::53 asked, [fd00::53]:53, 192.0.2.53:53 running']);
    expect(otherOptions({ upstreams: ['[fd00::53]:5353', '192.0.2.53'] }, v6)).toEqual(['upstreams [fd00::53]:5353, 192.0.2.53 asked, [fd00::53]:53, 192.0.2.53:53 running']);
  });

  it('walk 24 #3: a bare start on a running dnsmasq (upstream 192.0.2.53:53) says what runs on its preflight line, not the AdGuard plan a fresh start would make', async () => {
    const { h, cli } = await dnsmasqRunning();
    expect(await stopDns(h.deps, {}, () => undefined)).toMatchObject({ ok: true });
    expect(await startDns(h.deps, cli({ engine: 'dnsmasq', upstreams: ['192.0.2.53:53'] }), () => undefined)).toMatchObject({ ok: true });
    const events: LifecycleEvent[] = [];
    expect(await startDns(h.deps, cli({}), (e) => events.push(e))).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
    const printed: string[] = [];
    const memory: PrintedSteps = { steps: [] };
    for (const e of events) printEvent(e, false, (l) => printed.push(l), memory);
    expect(printed[0]).toBe('✓ preflight    K2s DNS is already running: dnsmasq at /usr/sbin/dnsmasq; upstreams 192.0.2.53; listeners 127.0.0.1:53');
  });

  it("the window's Start sends its stored engine preference with every Start: not compared, it works on a running K2s DNS as before", async () => {
    const { h } = await dnsmasqRunning();
    const window = startOptionsOf({ engine: 'adguard' }, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false });
    expect(window.engineExplicit).toBeUndefined();
    expect(await startDns(h.deps, { ...window, verifyExternalName: TEST_START_OPTS.verifyExternalName }, () => undefined)).toMatchObject({ ok: true, exitCode: 0, message: 'K2s DNS is already running; nothing changed.' });
  });

  it('startOptionsOf: an engine from the CLI door is explicit, from the window (the default door) it is not; no engine, no mark', () => {
    const found = { path: '/k', tried: [], explicit: false };
    expect(startOptionsOf({ engine: 'dnsmasq' }, found, 'cli')).toMatchObject({ engine: 'dnsmasq', engineExplicit: true });
    expect(startOptionsOf({ engine: 'dnsmasq' }, found, 'window')).not.toHaveProperty('engineExplicit');
    expect(startOptionsOf({ engine: 'dnsmasq' }, found)).not.toHaveProperty('engineExplicit');
    expect(startOptionsOf({}, found, 'cli')).not.toHaveProperty('engineExplicit');
    expect(startOptionsOf({}, found, 'cli')).toHaveProperty('cliDoor', true);
    expect(startOptionsOf({ kubeSwitch: 'none' }, found)).not.toHaveProperty('cliDoor');
  });

  it('fourth walk M2: status of a dnsmasq start with its own options prints fixes that start it again as it ran', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n', { mode: 0o755 });
    const opts = startOptionsOf({ engine: 'dnsmasq', upstreams: ['192.0.2.54'], onNetworkChange: 'keep', verifyName: 'www.example.test' }, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli');
    expect(await startDns(h.deps, opts, () => undefined)).toMatchObject({ ok: true });
    expect((await readState(h.deps.fs))?.startedWith).toEqual({ engine: 'dnsmasq', upstreams: ['192.0.2.54'], verifyName: 'www.example.test' });
    setCliRunningStart(null);
    await dnsStatus(h.deps);
    expect(fixText('restore', 'cli')).toBe(
      '"Keep their file" (the default): sudo npx k2s-dns stop --on-drift keep && sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --verify-name www.example.test --on-network-change keep; or "Restore my original": sudo npx k2s-dns stop --on-drift restore && sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --verify-name www.example.test --on-network-change keep',
    );
    // That printed start, run while it runs, is no other option: "nothing changed", exit 0.
    expect(await startDns(h.deps, opts, () => undefined)).toMatchObject({ ok: true, exitCode: 0 });
    // Stopped: no state, the bare start.
    await stopDns(h.deps, {}, () => undefined);
    await dnsStatus(h.deps);
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
  });
  it('walk5 H2: the watchdog is given the start line of this start (its give-up line in the proxy log names it), status not read first', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    const specs: { startLine?: string }[] = [];
    const start = h.services.start.bind(h.services);
    h.services.start = async (spec) => (specs.push(spec), start(spec));
    setCliRunningStart([['--engine', 'adguard']]); // stale flags of an earlier run: not used
    const opts = startOptionsOf({ engine: 'dnsmasq', upstreams: ['192.0.2.54'], verifyName: 'www.example.test' }, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli');
    expect(await startDns(h.deps, opts, () => undefined)).toMatchObject({ ok: true });
    expect(specs.map((s) => s.startLine)).toEqual(['sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --verify-name www.example.test']);
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start --engine adguard');
    setCliRunningStart(null);
  });

  it('sixth walk M1: the give-up line names an engine asked for, the table\'s first too, and the network policy of this start (both were left out)', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    await mkdir(join(h.root, 'opt/k2s/bin'), { recursive: true });
    await writeFile(join(h.root, 'opt/k2s/bin/dnsproxy'), '#!/bin/sh\n', { mode: 0o755 });
    const specs: { startLine?: string }[] = [];
    const start = h.services.start.bind(h.services);
    h.services.start = async (spec) => (specs.push(spec), start(spec));
    const opts = startOptionsOf({ engine: 'adguard', verifyName: 'www.example.test', onNetworkChange: 'keep' }, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli');
    expect(await startDns(h.deps, opts, () => undefined)).toMatchObject({ ok: true });
    expect(specs.map((s) => s.startLine)).toEqual(['sudo npx k2s-dns start --engine adguard --verify-name www.example.test --on-network-change keep']);
    // status later prints the same start.
    await dnsStatus(h.deps);
    expect(cliCommand('start', true)).toBe(specs[0]!.startLine);
    setCliRunningStart(null);
  });

  it('sixth walk M1: NOT_ROOT says to run the start asked for as root, with its options', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    const opts = startOptionsOf({ engine: 'dnsmasq', verifyName: 'www.example.test', upstreams: ['192.0.2.54'] }, { path: TEST_START_OPTS.kubeconfigPath, tried: [], explicit: false }, 'cli');
    const r = await startDns({ ...h.deps, uid: () => 1000 }, opts, () => undefined);
    expect(r).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_ROOT' });
    expect(r.message).toBe("Starting K2s DNS changes /etc/resolv.conf and binds port 53: run it as root: `sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --verify-name www.example.test`, or `su -c 'npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --verify-name www.example.test'` where sudo is not installed; or use the desktop app.");
  });
});
