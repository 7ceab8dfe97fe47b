/**
 * Fourth walk M2: the fix status printed while dnsmasq ran (`stop … && start`) brought AdGuard
 * back. The flags a printed start ends with reproduce the running start, and only those.
 */
import { describe, expect, it } from 'vitest';
import { runningStartFlags } from './running-start';
import { startFlagWords } from './start-flag';
import { stateFileProblem, type ResolverStateFile } from './state-file';

type Ran = Parameters<typeof runningStartFlags>[0];
const bare: Ran = { engine: 'adguard', listeners: [{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }], skippedListeners: [], allowedZones: [], onNetworkChange: 'follow', startedWith: {} };

describe('runningStartFlags', () => {
  it('a bare start (Automatic engine, defaults): no flag, so the fix stays `start`', () => {
    expect(runningStartFlags(bare)).toEqual([]);
    // Automatic that found only dnsmasq: a bare start picks it again.
    expect(runningStartFlags({ ...bare, engine: 'dnsmasq' })).toEqual([]);
    // Defaults given explicitly add nothing either.
    expect(runningStartFlags({ ...bare, startedWith: { kubeSwitch: '172.19.1.1', verifyName: 'kubernetes.io', logQueries: true } })).toEqual([]);
  });

  it('an engine asked for is said, the table\'s first too: a bare start would take the next one where it is gone (sixth walk M1: `--engine adguard` was dropped from the give-up line)', () => {
    expect(runningStartFlags({ ...bare, startedWith: { engine: 'adguard', kubeSwitch: '172.19.1.1', verifyName: 'kubernetes.io', logQueries: true } })).toEqual([['--engine', 'adguard']]);
    expect(runningStartFlags({ ...bare, engine: 'dnsmasq', startedWith: { engine: 'dnsmasq' } })).toEqual([['--engine', 'dnsmasq']]);
  });

  it('every option the running start was asked for, in --help order', () => {
    const ran: Ran = {
      ...bare,
      engine: 'dnsmasq',
      allowedZones: ['corp.example', 'lab.example'],
      onNetworkChange: 'keep',
      startedWith: { engine: 'dnsmasq', kubeSwitch: 'none', upstreams: ['192.0.2.54', '[fd00::1]:53'], verifyName: 'www.example.test', logQueries: false, dnsproxyPath: '/opt/my dnsproxy' },
    };
    expect(runningStartFlags(ran)).toEqual([
      ['--engine', 'dnsmasq'],
      ['--kubeswitch', 'none'],
      ['--upstream', '192.0.2.54'], ['--upstream', '[fd00::1]:53'],
      ['--verify-name', 'www.example.test'],
      ['--no-log-queries'],
      ['--allow-zone', 'corp.example'], ['--allow-zone', 'lab.example'],
      ['--on-network-change', 'keep'],
      ['--dnsproxy', '/opt/my dnsproxy'],
    ]);
  });

  it('a state file of an earlier version (no startedWith): the running engine and KubeSwitch choice from what it records', () => {
    const { startedWith: _, ...old } = bare;
    expect(runningStartFlags({ ...old, engine: 'dnsmasq' })).toEqual([['--engine', 'dnsmasq']]);
    expect(runningStartFlags({ ...old, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [{ address: 'KubeSwitch', reason: 'disabled with --kubeswitch none' }] })).toEqual([['--kubeswitch', 'none']]);
    expect(runningStartFlags({ ...old, listeners: [{ address: '127.0.0.1', port: 53 }, { address: '10.11.12.1', port: 53 }] })).toEqual([['--kubeswitch', '10.11.12.1']]);
    // K2s's default address not up yet: skipped with another reason, a bare start does the same.
    expect(runningStartFlags({ ...old, listeners: [{ address: '127.0.0.1', port: 53 }], skippedListeners: [{ address: '172.19.1.1', reason: 'not assigned' }] })).toEqual([]);
  });
});

describe('startFlagWords', () => {
  it('each flag followed by its value, a flag without one alone, in order', () => {
    expect(startFlagWords([['--engine', 'dnsmasq'], ['--no-log-queries'], ['--allow-zone', 'corp.example']])).toEqual(['--engine', 'dnsmasq', '--no-log-queries', '--allow-zone', 'corp.example']);
    expect(startFlagWords([])).toEqual([]);
  });
});

describe('state file startedWith', () => {
  const file = (startedWith?: unknown) => ({
    version: 1, writtenBy: 'k2s-dns', savedAt: '2024-01-01T00:00:00.000Z', resolvConf: { kind: 'absent' }, upstreams: [], resolvedDropIn: false,
    engine: 'dnsmasq', listeners: [], skippedListeners: [], clusterDomain: null, kubeDnsIp: null, kubernetesServiceIp: null, managedResolvConfSha256: null,
    ...(startedWith === undefined ? {} : { startedWith }),
  }) as unknown as ResolverStateFile;

  it('absent (earlier versions) and well-formed are read; a wrong shape is named', () => {
    expect(stateFileProblem(file())).toBeNull();
    expect(stateFileProblem(file({ engine: 'dnsmasq', upstreams: ['192.0.2.54'], logQueries: false }))).toBeNull();
    expect(stateFileProblem(file({ engine: 'bind' }))).toBe('startedWith.engine is not adguard, dnsmasq');
    expect(stateFileProblem(file({ upstreams: '192.0.2.54' }))).toBe('startedWith.upstreams is not a list of at most 32 upstreams');
    expect(stateFileProblem(file({ verifyName: 7 }))).toBe('startedWith.verifyName is not a string');
    expect(stateFileProblem(file([]))).toBe('startedWith is not an object');
  });
});
