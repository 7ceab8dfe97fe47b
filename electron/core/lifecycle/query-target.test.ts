/**
 * `k2s-dns query --server coredns` asks the kube-dns ClusterIP a start discovered, else K2s's
 * default 172.21.0.10; the default is said to be a guess, with why (new-user walk: on a host
 * without K2s it was asked as if known).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { queryTargets, resolveTarget } from './query-target';
import { readFile, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { join } from 'node:path';
import { startDns } from './start';
import { stopDns } from './stop';
import { TEST_START_OPTS, trackedHosts } from '../../../e2e/support/test-deps';
import { setCliName } from '../../../shared/fix';

const newHost = trackedHosts();
afterEach(() => setCliName('npx k2s-dns'));

describe('query --server coredns', () => {
  it('no start on this host: K2s\'s default is asked and said to be a guess, with where the cluster\'s own is read', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await resolveTarget(h.deps, 'coredns')).server).toBe('172.21.0.10:53');
    expect((await resolveTarget(h.deps, 'coredns', 'kubernetes.default.svc.cluster.local')).guess).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: no K2s DNS state is saved on this host (a start saves the address it discovers, a stop removes it); k2s-dns zones shows the cluster's own (--server IP asks another).");
  });

  it('a running start: the address it discovered is asked, and no guess is said', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const { server } = await resolveTarget(h.deps, 'coredns');
    expect(server).toMatch(/^\d+\.\d+\.\d+\.\d+:53$/);
    expect((await resolveTarget(h.deps, 'coredns', 'kubernetes.default.svc.cluster.local')).guess).toBeNull();
  });

  // Regression: after a start and its stop, or beside a corrupt state file, the line said no start had discovered the cluster's address.
  it('after a stop, and beside a corrupt state file: the guess says why no address is saved, not that no start discovered one', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect((await resolveTarget(h.deps, 'coredns')).server).toBe('172.21.0.10:53');
    expect((await resolveTarget(h.deps, 'coredns', 'x.example')).guess).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: no K2s DNS state is saved on this host (a start saves the address it discovers, a stop removes it); k2s-dns zones shows the cluster's own (--server IP asks another).");
    await writeFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), '{corrupt');
    expect((await resolveTarget(h.deps, 'coredns', 'x.example')).guess).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: the saved state, which would name the cluster's, cannot be read (k2s-dns status says why); k2s-dns zones shows the cluster's own (--server IP asks another).");
  });

  // break28: a saved kube-dns address that is no IP (a hand edit) made every `k2s-dns query` fail,
  // `--server proxy` and the default system target too ("DNS server \"bogus\" is not an IP address").
  it('a saved kube-dns address that is no IP: system and proxy are asked as ever; coredns is the default, said to be a guess and why', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const file = join(h.root, 'var/lib/k2s/dns-resolver-state.json');
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), kubeDnsIp: 'bogus' }));
    expect(await resolveTarget(h.deps, 'system')).toEqual({ server: 'system', guess: null });
    expect(await resolveTarget(h.deps, 'proxy')).toEqual({ server: '127.0.0.1:53', guess: null });
    expect(await resolveTarget(h.deps, 'coredns', 'x.example')).toEqual({
      server: '172.21.0.10:53',
      guess: "172.21.0.10 is K2s's default kube-dns address, a guess: the saved state's kube-dns address \"bogus\" is no IP address; k2s-dns zones shows the cluster's own (--server IP asks another).",
    });
    expect((await queryTargets(h.deps)).find((t) => t.id === 'coredns')).toMatchObject({ server: '172.21.0.10:53', label: 'CoreDNS direct 172.21.0.10' });
  });

  it('a user under root\'s 0700 state directory: the default is a guess, and the root line asks the discovered one', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const fs = h.deps.fs;
    const denied = (p: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${p}'`), { code: 'EACCES' });
    h.deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith('/var/lib/k2s/') ? Promise.reject(denied(p)) : fs.lstat(p)) };
    h.deps.uid = () => 1000;
    expect((await resolveTarget(h.deps, 'coredns')).server).toBe('172.21.0.10:53');
    expect((await resolveTarget(h.deps, 'coredns', "web's.example")).guess).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: a start's saved state, which would name the cluster's, is readable by root only; as root, sudo k2s-dns query 'web'\\''s.example' --server coredns asks the discovered one where there is one.");
  });

  it("left28 #5: a user while K2s DNS runs asks the kube-dns address the running proxy's config names (as status reads it), not the default, and says no guess; the window's target too", async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    // The cluster's kube-dns at another ClusterIP than K2s's default, as the running dnsmasq's config names it.
    const conf = h.deps.fs.real(K2S_PATHS.dnsmasqConfig);
    const text = await readFile(conf, 'utf8');
    expect(text).toContain('172.21.0.10');
    await writeFile(conf, text.replaceAll('172.21.0.10', '10.96.0.10'));
    // The running proxy: a process whose argv carries the config argument K2s renders for dnsmasq (own-proxy.ts).
    const proxy = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', `--conf-file=${conf}`], { stdio: 'ignore' });
    try {
      // Emitted once exec(2) succeeded (libuv reports exec failure before it): its cmdline is the new one.
      await once(proxy, 'spawn');
      h.services.status = async () => ({ running: true, pid: proxy.pid! });
      const fs = h.deps.fs;
      const denied = (p: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${p}'`), { code: 'EACCES' });
      h.deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith('/var/lib/k2s/') ? Promise.reject(denied(p)) : fs.lstat(p)) };
      h.deps.uid = () => 1000;
      expect(await resolveTarget(h.deps, 'coredns', 'kubernetes.default.svc.cluster.local')).toEqual({ server: '10.96.0.10:53', guess: null });
      expect((await queryTargets(h.deps)).find((t) => t.id === 'coredns')).toEqual({ id: 'coredns', label: 'CoreDNS direct 10.96.0.10', server: '10.96.0.10:53' });
    } finally {
      proxy.kill();
    }
  });
});
