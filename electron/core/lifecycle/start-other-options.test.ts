/**
 * A start while K2s DNS runs does not change it: asked for other upstreams or another
 * network-change policy (the fix the degraded verdict offered), it used to say "already running;
 * nothing changed" with exit 0 while the dead upstream stayed (second new-user walk, high). Now
 * it is refused, naming what differs and the way (stop, then start). Fourth walk: an explicit
 * `--engine` is such an option too (M3), and the fixes status prints start K2s DNS again with the
 * options it runs with (M2).
 */
import { describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { otherOptions, startDns } from './start';
import { startOptionsOf } from './options';
import { dnsStatus } from './status';
import { stopDns } from './stop';
import { cliCommand, setCliRunningStart } from '../../../shared/fix';
import { fixText } from '../../../shared/health';
import { readState } from '../host/resolver-state';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { printEvent, type PrintedSteps } from '../../cli/print';
import type { LifecycleEvent } from '../../../shared/lifecycle-events';

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
    setCliRunningStart(['--engine', 'adguard']); // stale flags of an earlier run: not used
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
