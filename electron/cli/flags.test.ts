import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { START_FIELDS, STOP_FIELDS } from '../../shared/operation-input';
import { cliInputOf, cliOptionsOf, parseCliArgs, UsageError } from './flags';

/** What `k2s-dns start ARGS` turns into (the Start input). */
const startOf = (args: string[]) => cliInputOf(START_FIELDS, parseArgs({ args, options: cliOptionsOf(START_FIELDS), strict: true }).values);

describe('CLI flags from the Start schema', () => {
  it('--on-network-change takes follow or keep, nothing else', () => {
    expect(startOf(['--on-network-change', 'keep'])).toEqual({ onNetworkChange: 'keep' });
    expect(startOf(['--on-network-change', 'follow'])).toEqual({ onNetworkChange: 'follow' });
    expect(() => startOf(['--on-network-change', 'ignore'])).toThrow(UsageError);
  });

  it('derives the start flags: lists repeat, --no-log-queries is a switch, --kubeconfig is not a Start flag', () => {
    expect(cliOptionsOf(START_FIELDS)).toEqual({
      engine: { type: 'string' },
      kubeswitch: { type: 'string' },
      'verify-name': { type: 'string' },
      'allow-zone': { type: 'string', multiple: true },
      dnsproxy: { type: 'string' },
      upstream: { type: 'string', multiple: true },
      'on-network-change': { type: 'string' },
      'no-log-queries': { type: 'boolean' },
    });
    expect(cliOptionsOf(STOP_FIELDS)).toEqual({ 'on-drift': { type: 'string' } });
  });

  it('turns flags into the Start input: zones lower-cased without trailing dot, --no-log-queries as logQueries false', () => {
    expect(startOf(['--engine', 'dnsmasq', '--kubeswitch', 'none', '--allow-zone', 'Corp.Example.', '--allow-zone', 'test', '--upstream', '[fd00::53]:53', '--no-log-queries', '--verify-name', 'kubernetes.io'])).toEqual({
      engine: 'dnsmasq',
      kubeSwitch: 'none',
      allowZones: ['corp.example', 'test'],
      upstreams: ['[fd00::53]:53'],
      logQueries: false,
      verifyName: 'kubernetes.io',
    });
    expect(startOf([])).toEqual({});
  });

  it.each([
    [['--engine', 'bind'], '--engine must be one of adguard, dnsmasq, not "bind".'],
    [['--kubeswitch', '8.8.8.8'], '--kubeswitch must be a private IPv4 address assigned to this host'],
    [['--verify-name', '1.2.3.4'], '--verify-name must be a DNS name such as kubernetes.io, not "1.2.3.4".'],
    [['--verify-name', '1.2.3.4.'], '--verify-name must be a DNS name such as kubernetes.io, not "1.2.3.4.".'],
    [['--verify-name', '1234'], '--verify-name must be a DNS name such as kubernetes.io, not "1234".'],
    [['--allow-zone', 'ok.example', '--allow-zone', 'x y'], '--allow-zone must be a zone name such as corp.example, not "x y".'],
    [['--upstream', 'dns.google'], '--upstream must be an IP or IP:PORT, e.g. 192.168.1.1 or [fd00::1]:53, not "dns.google".'],
    [Array.from({ length: 101 }, (_, i) => ['--allow-zone', `z${i}.example`]).flat(), '--allow-zone was given more than 100 times'],
  ])('refuses case %# with a usage error naming the flag', (args, message) => {
    expect(() => startOf(args)).toThrow(UsageError);
    expect(() => startOf(args)).toThrow(message);
  });
});

describe('a single-value flag given twice (the helper refuses it too: electron/helper/request.ts)', () => {
  const options = { ...cliOptionsOf(START_FIELDS), json: { type: 'boolean' as const } };
  it('--engine twice is refused with the flag named, not the last one taken', () => {
    expect(() => parseCliArgs(['--engine', 'adguard', '--engine', 'dnsmasq'], options, false)).toThrow(new UsageError('--engine was given more than once (--engine takes one value); give it once.'));
    expect(() => parseCliArgs(['--verify-name=a.example', '--verify-name', 'b.example'], options, false)).toThrow('--verify-name was given more than once');
  });
  it('a list flag and a switch may repeat; one of each is taken as given', () => {
    expect(parseCliArgs(['--upstream', '192.0.2.1', '--upstream', '192.0.2.2', '--json', '--json', '--engine', 'dnsmasq'], options, false).values).toEqual({ upstream: ['192.0.2.1', '192.0.2.2'], json: true, engine: 'dnsmasq' });
  });
});
