/**
 * The exact query log's companion (it needs nothing of the proxy) starts right after save,
 * so its own start-up runs alongside discover and config: with the ports preflight knows, kept
 * when the zones add none, restarted with the zones' ports when they do; a refusal before save
 * starts nothing, and a failed discover rolls the started companion back.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { CAPTURE_READY_FILE } from '../capture/capture-args';
import { FIXTURE_DISCOVERY, trackedHosts, TEST_START_OPTS } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const quiet = () => undefined;
const BASE = ['/usr/bin/node', '/usr/lib/k2s-dns/k2s-dns.mjs', 'capture-watch'];

/**
 * A host with a fake companion; `log` gets 'discover', 'capture
 * <args>' and 'capture stop' in order; with `prepared`, also 'prepare' (the held process begun),
 * 'capture <args> (held)' for a start that lets it go and 'drop' when it is dropped.
 */
async function hostWithCapture(prepared = false) {
  const h = await newHost();
  const log: string[] = [];
  const discover = h.deps.discover;
  let discoverBegan!: () => void;
  const discoverCalled = new Promise<void>((r) => (discoverBegan = r));
  h.deps.discover = async (...a) => {
    log.push('discover');
    discoverBegan();
    return discover(...a);
  };
  h.deps.capture = {
    argv: BASE,
    tcpdump: '/usr/bin/tcpdump',
    manager: {
      start: async (argv, held) => {
        log.push(`capture ${argv.slice(BASE.length).join(' ')}${held ? ' (held)' : ''}`);
        if (held) {
          // Its pidfile written first (file I/O), then let go: discover does not begin meanwhile
          // (given a second to, were it not waiting for the go line).
          await Promise.race([discoverCalled, new Promise((r) => setTimeout(r, 1000))]);
          held.process.letGo('go');
          log.push('go');
        }
        await h.deps.fs.writeFileAtomic(CAPTURE_READY_FILE, '4242\n', { mode: 0o644 });
      },
      ...(prepared
        ? {
            prepare: async (base: readonly string[]) => {
              log.push('prepare');
              let settled = false;
              return { base, process: { pid: 4242, exited: () => false, drop: () => void (settled || ((settled = true), log.push('drop'))), letGo: () => void (settled = true) } };
            },
          }
        : {}),
      stop: async () => {
        log.push('capture stop');
        await h.deps.fs.remove(CAPTURE_READY_FILE);
      },
    },
  };
  return { h, log };
}

describe('start: the capture companion begins before discover', () => {
  it('is started once, before the cluster is read, with the ports of the listeners and upstreams', async () => {
    const { h, log } = await hostWithCapture();
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    expect(log).toEqual(['capture --listen 127.0.0.1:53 --port 53', 'discover']);
    expect(await h.deps.fs.readFile(CAPTURE_READY_FILE)).toEqual(Buffer.from('4242\n'));
  });

  it('a zone whose upstream adds a port: restarted with it (after the first start settled), and that one is the running one', async () => {
    const { h, log } = await hostWithCapture();
    h.world.discovery = { ...FIXTURE_DISCOVERY, zones: [...FIXTURE_DISCOVERY.zones, { zone: 'corp.internal', upstream: '172.21.0.20:5353', source: 'corefile', reason: 'Corefile server block "corp.internal:53"', clusterDomain: false, reverse: false }], allowedZones: ['corp.internal'] };
    const r = await startDns(h.deps, { ...TEST_START_OPTS, allowZones: ['corp.internal'] }, quiet);
    expect(r).toMatchObject({ ok: true });
    expect(r.warnings ?? []).toEqual([]);
    expect(log).toEqual(['capture --listen 127.0.0.1:53 --port 53', 'discover', 'capture --listen 127.0.0.1:53 --port 53 --port 5353']);
  });

  it('a failed discover rolls the started companion back (exit 1), the original resolver is back', async () => {
    const { h, log } = await hostWithCapture();
    h.world.discovery = new Error('the API server did not answer');
    const r = await startDns(h.deps, TEST_START_OPTS, quiet);
    expect(r).toMatchObject({ ok: false, exitCode: 1, code: 'DISCOVERY_FAILED' });
    expect(log).toEqual(['capture --listen 127.0.0.1:53 --port 53', 'discover', 'capture stop']);
    expect(await h.deps.fs.lstat(CAPTURE_READY_FILE)).toBeNull();
    expect((await h.deps.fs.readFile('/etc/resolv.conf')).toString()).toBe('nameserver 192.0.2.53\nsearch corp.example\n');
  });

  it('a refusal in preflight starts nothing', async () => {
    const { h, log } = await hostWithCapture();
    h.world.portHolder = { pid: 812, command: '/usr/sbin/dnsmasq' };
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: false, exitCode: 3 });
    expect(log).toEqual([]);
  });


  it('held: the companion\'s process begins under the lock, before preflight reads the host, and the first start lets it go', async () => {
    const { h, log } = await hostWithCapture(true);
    const preflightLog = h.deps.mountinfo;
    h.deps.mountinfo = async () => (log.includes('preflight') || log.push('preflight'), preflightLog());
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    // …before discover begins: its go line does not wait behind discover's work.
    expect(log).toEqual(['prepare', 'preflight', 'capture --listen 127.0.0.1:53 --port 53 (held)', 'go', 'discover']);
  });

  it('held: the Kubernetes client loads once the companion\'s process began, before preflight (its Node start-up overlaps the load)', async () => {
    const { h, log } = await hostWithCapture(true);
    const preflightLog = h.deps.mountinfo;
    h.deps.mountinfo = async () => (log.includes('preflight') || log.push('preflight'), preflightLog());
    h.deps.loadClusterClient = async () => void log.push('load');
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    expect(log.slice(0, 3)).toEqual(['prepare', 'load', 'preflight']);
    // Without the log (nothing held) it is not loaded ahead: preflight's kubeconfig check loads
    // it once the service manager's reads have begun (preflight-early-reads.test.ts).
    const off = await hostWithCapture(true);
    off.h.deps.mountinfo = async () => (off.log.includes('preflight') || off.log.push('preflight'), preflightLog());
    off.h.deps.loadClusterClient = async () => void off.log.push('load');
    expect(await startDns(off.h.deps, { ...TEST_START_OPTS, logQueries: false }, quiet)).toMatchObject({ ok: true });
    expect(off.log.slice(0, 2)).toEqual(['preflight', 'discover']);
  });

  it('held: a refusal in preflight drops it (it exits having done nothing); so does a start with the log off', async () => {
    const { h, log } = await hostWithCapture(true);
    h.world.portHolder = { pid: 812, command: '/usr/sbin/dnsmasq' };
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: false, exitCode: 3 });
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['prepare', 'drop']);
    const off = await hostWithCapture(true);
    expect(await startDns(off.h.deps, { ...TEST_START_OPTS, logQueries: false }, quiet)).toMatchObject({ ok: true });
    expect(off.log).toEqual(['discover', 'capture stop']);
  });

  it("the proxy's unit files are written before the capture's start (its reload reads them too), with the spec the service step starts; not with a held capture (it reloads for nothing)", async () => {
    for (const prepared of [false, true]) {
      const { h, log } = await hostWithCapture(prepared);
      const written: unknown[] = [];
      const started: unknown[] = [];
      const start = h.deps.services.start.bind(h.deps.services);
      h.deps.services.writeUnits = async (spec) => {
        log.push('write units');
        written.push(spec);
      };
      h.deps.services.start = async (spec) => {
        started.push(spec);
        return start(spec);
      };
      expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
      if (prepared) {
        expect(log.slice(0, 2)).toEqual(['prepare', 'capture --listen 127.0.0.1:53 --port 53 (held)']);
        expect(written).toEqual([]);
      } else {
        expect(log).toEqual(['write units', 'capture --listen 127.0.0.1:53 --port 53', 'discover']);
        expect(written).toEqual(started);
        expect(started).toHaveLength(1);
      }
    }
  });
});

describe('start: an --allow-zone that forwarded nothing', () => {
  it('is a warning (ALLOW_ZONE_UNUSED) naming it; the start goes on', async () => {
    const { h } = await hostWithCapture();
    const r = await startDns(h.deps, { ...TEST_START_OPTS, allowZones: ['Example.TEST.'] }, quiet);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.warnings).toEqual([{ code: 'ALLOW_ZONE_UNUSED', message: 'Allowed zone example.test changed nothing: no zone the Corefile serves was refused by that name, so none is forwarded because of it (check the spelling against the zones listed).' }]);
  });
});
