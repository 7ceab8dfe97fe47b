import { describe, expect, it } from 'vitest';
import { ENGINE_NAMES } from '../../../shared/engines/table';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { testPlan } from '../../../e2e/support/test-plan';
import { ENGINE_RUNTIMES, engineRuntime, type EngineRuntime } from './table';

const ARGS_CONFIG = '/etc/k2s/engine.conf';

describe('Node-side engine table (electron/core/engines/table.ts)', () => {
  it('has one runtime per name of the shared table, in its order', () => {
    expect(Object.keys(ENGINE_RUNTIMES)).toEqual([...ENGINE_NAMES]);
  });

  it('gives each engine its own config file under /etc/k2s', () => {
    const paths = ENGINE_NAMES.map((n) => engineRuntime(n).configPath);
    expect(paths).toEqual([K2S_PATHS.proxyConfig, K2S_PATHS.dnsmasqConfig]);
    expect(new Set(paths).size).toBe(ENGINE_NAMES.length);
    for (const p of paths) expect(p.startsWith('/etc/k2s/')).toBe(true);
  });

  it.each(ENGINE_NAMES)('%s: renders a config naming the plan\'s upstream, builds argv with the config and splits it by listener', async (name) => {
    const rt: EngineRuntime = engineRuntime(name);
    const plan = testPlan({ engine: name });
    expect(await rt.renderConfig(plan)).toContain(plan.upstreams[0]!);
    const drop = rt.selfDrop ? rt.selfDrop('') : null;
    const args = rt.args(ARGS_CONFIG, true, ['127.0.0.1', '172.19.1.1'], drop);
    expect(args.some((a) => a.includes(ARGS_CONFIG))).toBe(true);
    const argv = ['/bin/engine', ...args];
    const late = rt.onlyListeners(argv, ['172.19.1.1']);
    expect(late[0]).toBe('/bin/engine');
    expect(late.join(' ')).toContain('172.19.1.1');
    expect(rt.onlyListeners(argv, ['127.0.0.1']).join(' ')).not.toContain('172.19.1.1');
    expect(rt.installText.length).toBeGreaterThan(0);
    expect(rt.missingText('/nowhere/bin')).toContain('/nowhere/bin');
    if (rt.runAs !== null) expect(rt.runAs).toEqual({ user: expect.stringMatching(/^[a-z_][a-z0-9_-]*$/), group: expect.stringMatching(/^[a-z_][a-z0-9_-]*$/) });
  });

  it('each engine drops root one way: the service manager (runAs) or its own option (selfDrop)', () => {
    expect(engineRuntime('adguard').selfDrop).toBeNull();
    expect(engineRuntime('adguard').runAs).not.toBeNull();
    expect(engineRuntime('dnsmasq').runAs).toBeNull();
    const passwd = 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\ndnsmasq:x:994:65534:dnsmasq:/var/lib/misc:/usr/sbin/nologin\n';
    const own = engineRuntime('dnsmasq').selfDrop!(passwd);
    expect(engineRuntime('dnsmasq').args(ARGS_CONFIG, true, ['127.0.0.1'], own).slice(-2)).toEqual(['--user=dnsmasq', '--group=nogroup']);
    const shared = engineRuntime('dnsmasq').selfDrop!(passwd.split('\n')[0]!);
    expect(engineRuntime('dnsmasq').args(ARGS_CONFIG, true, ['127.0.0.1'], shared).slice(-2)).toEqual(['--user=nobody', '--group=nogroup']);
    expect(shared.warning).toContain('shared account nobody');
  });

  it('finds each binary from its own option, else its default', () => {
    expect(engineRuntime('adguard').binaryOf({})).toBe('/opt/k2s/bin/dnsproxy');
    expect(engineRuntime('adguard').binaryOf({ installDir: '/srv/k2s' })).toBe('/srv/k2s/bin/dnsproxy');
    expect(engineRuntime('adguard').binaryOf({ dnsproxyPath: '/x/dnsproxy', dnsmasqPath: '/y/dnsmasq' })).toBe('/x/dnsproxy');
    expect(engineRuntime('dnsmasq').binaryOf({})).toBe('/usr/sbin/dnsmasq');
    expect(engineRuntime('dnsmasq').binaryOf({ dnsproxyPath: '/x/dnsproxy', dnsmasqPath: '/y/dnsmasq' })).toBe('/y/dnsmasq');
  });
});
