/**
 * `k2s-dns query --server coredns` asks the kube-dns ClusterIP a start discovered, else K2s's
 * default 172.21.0.10; the default is said to be a guess, with why (new-user walk: on a host
 * without K2s it was asked as if known).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { coreDnsGuess, resolveTarget } from './query-target';
import { writeFile } from 'node:fs/promises';
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
    expect(await resolveTarget(h.deps, 'coredns')).toBe('172.21.0.10:53');
    expect(await coreDnsGuess(h.deps, 'kubernetes.default.svc.cluster.local')).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: no K2s DNS state is saved on this host (a start saves the address it discovers, a stop removes it); k2s-dns zones shows the cluster's own (--server IP asks another).");
  });

  it('a running start: the address it discovered is asked, and no guess is said', async () => {
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const server = await resolveTarget(h.deps, 'coredns');
    expect(server).toMatch(/^\d+\.\d+\.\d+\.\d+:53$/);
    expect(await coreDnsGuess(h.deps, 'kubernetes.default.svc.cluster.local')).toBeNull();
  });

  // Regression: after a start and its stop, or beside a corrupt state file, the line said no start had discovered the cluster's address.
  it('after a stop, and beside a corrupt state file: the guess says why no address is saved, not that no start discovered one', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    expect(await resolveTarget(h.deps, 'coredns')).toBe('172.21.0.10:53');
    expect(await coreDnsGuess(h.deps, 'x.example')).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: no K2s DNS state is saved on this host (a start saves the address it discovers, a stop removes it); k2s-dns zones shows the cluster's own (--server IP asks another).");
    await writeFile(join(h.root, 'var/lib/k2s/dns-resolver-state.json'), '{corrupt');
    expect(await coreDnsGuess(h.deps, 'x.example')).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: the saved state, which would name the cluster's, cannot be read (k2s-dns status says why); k2s-dns zones shows the cluster's own (--server IP asks another).");
  });

  it('a user under root\'s 0700 state directory: the default is a guess, and the root line asks the discovered one', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    expect((await startDns(h.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const fs = h.deps.fs;
    const denied = (p: string) => Object.assign(new Error(`EACCES: permission denied, lstat '${p}'`), { code: 'EACCES' });
    h.deps.fs = { ...fs, real: fs.real.bind(fs), lstat: async (p) => (p.startsWith('/var/lib/k2s/') ? Promise.reject(denied(p)) : fs.lstat(p)) };
    h.deps.uid = () => 1000;
    expect(await resolveTarget(h.deps, 'coredns')).toBe('172.21.0.10:53');
    expect(await coreDnsGuess(h.deps, "web's.example")).toBe("172.21.0.10 is K2s's default kube-dns address, a guess: a start's saved state, which would name the cluster's, is readable by root only; as root, sudo k2s-dns query 'web'\\''s.example' --server coredns asks the discovered one where there is one.");
  });
});
