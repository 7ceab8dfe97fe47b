import { describe, expect, it } from 'vitest';
import { parseHelperArgs, helperArgs, HelperUsageError } from './request';
import { helperArgv, chooseElevation, parseEventLines, runHelper, type LauncherOptions } from './launcher';
import type { LifecycleEvent } from '../../shared/lifecycle-events';
import { findInstallGap } from './installed';

const o: LauncherOptions = {
  uid: 1000,
  nodePath: '/usr/bin/node',
  helperScript: "/opt/k2s dns/bin/k2s-dns-helper.mjs",
  installedHelper: '/usr/lib/k2s-dns/k2s-dns-helper',
  installGap: () => findInstallGap(() => null),
};
const installed = () => null;

describe('helper arguments', () => {
  it('accepts the fixed verbs with their flags and round-trips them', () => {
    const req = parseHelperArgs(['start', '--kubeconfig', '/etc/kubernetes/admin.conf', '--engine', 'dnsmasq', '--kubeswitch', 'none']);
    expect(req).toEqual({ verb: 'start', kubeconfig: '/etc/kubernetes/admin.conf', engine: 'dnsmasq', kubeSwitch: 'none' });
    expect(helperArgs(req)).toEqual(['start', '--kubeconfig', '/etc/kubernetes/admin.conf', '--engine', 'dnsmasq', '--kubeswitch', 'none']);
    expect(parseHelperArgs(['stop', '--on-drift', 'restore'])).toEqual({ verb: 'stop', onDrift: 'restore' });
  });

  it('carries the window\'s Start options → Upstreams as one comma-joined --upstreams value', () => {
    const req = parseHelperArgs(['start', '--upstreams', '192.0.2.99,[fd00::1]:53']);
    expect(req).toEqual({ verb: 'start', upstreams: ['192.0.2.99', '[fd00::1]:53'] });
    expect(helperArgs(req)).toEqual(['start', '--upstreams', '192.0.2.99,[fd00::1]:53']);
    expect(() => parseHelperArgs(['start', '--upstreams', '192.0.2.99,nameserver 6.6.6.6'])).toThrow(HelperUsageError);
  });

  it.each([
    [['rm', '-rf', '/']],
    [[]],
    [['start', '--upstream', '1.1.1.1']],
    [['stop', '--engine', 'dnsmasq']],
    [['start', '--engine', 'bind']],
    [['start', '--kubeconfig', 'relative/path']],
    [['start', '--kubeconfig', '/etc/../root/.kube/config']],
    [['start', '--kubeconfig', "/tmp/x';reboot;'"]],
    [['start', '--kubeswitch', '172.19.1.1\nnameserver 6.6.6.6']],
    // Only private space (shared/kubeswitch-address.ts): a public or loopback address is refused.
    [['start', '--kubeswitch', '8.8.8.8']],
    [['start', '--kubeswitch', '127.0.0.2']],
    [['start', '--engine']],
    [['start', '--engine', 'dnsmasq', '--engine', 'adguard']],
  ])('refuses %j', (argv) => {
    expect(() => parseHelperArgs(argv)).toThrow(HelperUsageError);
  });

  it('a repeated flag in the words the CLI uses (shared/operation-input.ts repeatedFlagMessage); an address as --verify-name, with or without the root dot', () => {
    expect(() => parseHelperArgs(['start', '--engine', 'dnsmasq', '--engine', 'adguard'])).toThrow('--engine was given more than once (--engine takes one value); give it once.');
    expect(() => parseHelperArgs(['start', '--verify-name', '1.2.3.4.'])).toThrow(HelperUsageError);
    expect(parseHelperArgs(['start', '--verify-name', 'kubernetes.io.'])).toEqual({ verb: 'start', verifyName: 'kubernetes.io.' });
  });
});

describe('elevation', () => {
  it('runs directly as root, pkexec when the policy is installed, and never elevates the checkout otherwise', () => {
    expect(chooseElevation({ ...o, uid: 0 })).toBe('direct');
    expect(chooseElevation({ ...o, installGap: installed })).toBe('pkexec');
    expect(chooseElevation(o)).toBe('not-installed');
  });

  it('gives pkexec the installed helper itself as an argv array (exec.path match, no shell)', () => {
    expect(helperArgv({ ...o, installGap: installed }, 'pkexec', { verb: 'stop' })).toEqual(['/usr/bin/pkexec', '/usr/lib/k2s-dns/k2s-dns-helper', 'stop']);
    expect(helperArgv({ ...o, uid: 0 }, 'direct', { verb: 'stop', onDrift: 'keep' })).toEqual(['/usr/bin/node', '--enable-source-maps', '/opt/k2s dns/bin/k2s-dns-helper.mjs', 'stop', '--on-drift', 'keep']);
  });

  it('without an installed helper, refuses (exit 3) and says how to install it, running nothing', async () => {
    const events: LifecycleEvent[] = [];
    const r = await runHelper({ ...o, nodePath: '/nonexistent/node-must-not-run' }, { verb: 'start' }, (e) => events.push(e));
    expect(r).toMatchObject({ type: 'result', op: 'start', ok: false, exitCode: 3, code: 'HELPER_NOT_INSTALLED' });
    expect(r.message).toContain('/usr/lib/k2s-dns/k2s-dns-helper');
    expect(r.message).toContain('sudo bash scripts/install-helper.sh');
    expect(events).toEqual([r]);
  });

  it('reads JSON event lines and ignores other output', () => {
    const text = 'noise\n{"type":"step","op":"stop","step":"restore","status":"done","message":"ok","at":1}\n{bad json\n{"type":"result","op":"stop","ok":true,"exitCode":0,"message":"done","at":2}\n';
    expect(parseEventLines(text).map((e) => e.type)).toEqual(['step', 'result']);
  });
});
