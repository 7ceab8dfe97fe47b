import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { START_FIELDS, STOP_FIELDS } from '../../shared/operation-input';
import { cliInputOf, cliOptionsOf, EMPTY_KUBECONFIG, parseCliArgs, queryLinesOf, UsageError } from './flags';

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
    expect(cliOptionsOf(STOP_FIELDS)).toEqual({ 'on-drift': { type: 'string' }, restore: { type: 'string' } });
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
    // inet_aton(3) forms getaddrinfo answers as 127.0.0.1 without asking DNS (shared/inet-aton.ts).
    [['--verify-name', '0x7f000001'], '--verify-name must be a DNS name such as kubernetes.io, not "0x7f000001".'],
    [['--verify-name', '0177.1'], '--verify-name must be a DNS name such as kubernetes.io, not "0177.1".'],
    // RFC 4343 folds ASCII only: the Kelvin sign U+212A is no `k` (JavaScript's toLowerCase makes one of it).
    [['--allow-zone', '\u212A8s.corp'], '--allow-zone must be an ASCII zone name such as corp.example, not "\u212A8s.corp": it holds the non-ASCII character "\u212A" (U+212A); it only looks like the ASCII "k"'],
    [['--allow-zone', 'b\u00FCro.corp'], '--allow-zone must be an ASCII zone name such as corp.example, not "b\u00FCro.corp": it holds the non-ASCII character "\u00FC" (U+00FC) (an internationalized name goes in its xn-- form).'],
    [['--allow-zone', 'ok.example', '--allow-zone', 'x y'], '--allow-zone must be a zone name such as corp.example, not "x y".'],
    [['--upstream', 'dns.google'], '--upstream must be an IP or IP:PORT, e.g. 192.168.1.1 or [fd00::1]:53, not "dns.google".'],
    // mend30: a port out of range is said as such, not as "not an IP".
    [['--upstream', '127.0.0.1:0'], '--upstream "127.0.0.1:0" has port 0, outside 1–65535: give a port from 1 to 65535, or leave it out for 53, e.g. 10.0.0.2:5353 or [fd00::53]:5353.'],
    [['--upstream', '127.0.0.1:99999'], '--upstream "127.0.0.1:99999" has port 99999, outside 1–65535'],
    [['--upstream', '[fd00::53]:70000'], '--upstream "[fd00::53]:70000" has port 70000, outside 1–65535'],
    [Array.from({ length: 101 }, (_, i) => ['--allow-zone', `z${i}.example`]).flat(), '--allow-zone was given more than 100 times'],
  ])('refuses case %# with a usage error naming the flag', (args, message) => {
    expect(() => startOf(args)).toThrow(UsageError);
    expect(() => startOf(args)).toThrow(message);
  });
});

describe('k2s-dns queries --lines', () => {
  it('takes a whole number 1–5000 written in digits, 50 when absent', () => {
    expect(queryLinesOf(undefined)).toBe(50);
    expect(queryLinesOf('1')).toBe(1);
    expect(queryLinesOf('5000')).toBe(5000);
  });
  it.each(['1e3', '0x10', '5.0', ' 7', '+7', '0', '5001', '', '00000000010'])('refuses %j in the CLI\'s words', (text) => {
    expect(() => queryLinesOf(text)).toThrow(new UsageError(`--lines must be a whole number from 1 to 5000, not "${text}".`));
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

describe('--kubeconfig with an empty value', () => {
  const kube = { kubeconfig: { type: 'string' as const } };
  it('is refused in the CLI\'s words, not read as absent', () => {
    expect(() => parseCliArgs(['--kubeconfig', ''], kube, false)).toThrow(new UsageError(EMPTY_KUBECONFIG));
    expect(() => parseCliArgs(['--kubeconfig='], kube, false)).toThrow(new UsageError(EMPTY_KUBECONFIG));
    expect(EMPTY_KUBECONFIG).toBe('--kubeconfig must be a path to a kubeconfig file, not "" (an empty value); leave the flag out to let k2s-dns find the kubeconfig itself.');
  });
  it('a path is still taken', () => {
    expect(parseCliArgs(['--kubeconfig', '/etc/kubernetes/admin.conf'], kube, false).values.kubeconfig).toBe('/etc/kubernetes/admin.conf');
  });
});
