import { describe, expect, it } from 'vitest';
import { parseHelperArgs, helperArgs, HelperUsageError } from './request';
import { sudoPromptCommand, helperArgv, chooseElevation, shellQuote, parseEventLines, type LauncherOptions } from './launcher';

const o: LauncherOptions = {
  uid: 1000,
  nodePath: '/usr/bin/node',
  helperScript: "/opt/k2s dns/bin/k2s-dns-helper.mjs",
  installedHelper: '/usr/lib/k2s-dns/k2s-dns-helper',
  policyInstalled: false,
};

describe('helper arguments', () => {
  it('accepts the fixed verbs with their flags and round-trips them', () => {
    const req = parseHelperArgs(['start', '--kubeconfig', '/etc/kubernetes/admin.conf', '--engine', 'dnsmasq', '--kubeswitch', 'none']);
    expect(req).toEqual({ verb: 'start', kubeconfig: '/etc/kubernetes/admin.conf', engine: 'dnsmasq', kubeSwitch: 'none' });
    expect(helperArgs(req)).toEqual(['start', '--kubeconfig', '/etc/kubernetes/admin.conf', '--engine', 'dnsmasq', '--kubeswitch', 'none']);
    expect(parseHelperArgs(['stop', '--on-drift', 'restore'])).toEqual({ verb: 'stop', onDrift: 'restore' });
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
    [['start', '--engine']],
    [['start', '--engine', 'dnsmasq', '--engine', 'adguard']],
  ])('refuses %j', (argv) => {
    expect(() => parseHelperArgs(argv)).toThrow(HelperUsageError);
  });
});

describe('elevation', () => {
  it('runs directly as root, pkexec when the policy is installed, sudo-prompt otherwise', () => {
    expect(chooseElevation({ ...o, uid: 0 })).toBe('direct');
    expect(chooseElevation({ ...o, policyInstalled: true })).toBe('pkexec');
    expect(chooseElevation(o)).toBe('sudo-prompt');
  });

  it('gives pkexec the installed helper itself as an argv array (exec.path match, no shell)', () => {
    expect(helperArgv({ ...o, policyInstalled: true }, 'pkexec', { verb: 'stop' })).toEqual(['pkexec', '/usr/lib/k2s-dns/k2s-dns-helper', 'stop']);
  });

  it('builds the sudo-prompt command string only from single-quoted fixed parts', () => {
    expect(sudoPromptCommand(o, { verb: 'start', engine: 'dnsmasq', kubeconfig: '/home/dev/.kube/config' })).toBe(
      "'/usr/bin/node' '/opt/k2s dns/bin/k2s-dns-helper.mjs' 'start' '--kubeconfig' '/home/dev/.kube/config' '--engine' 'dnsmasq'",
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(() => shellQuote('a\nb')).toThrow(/control character/);
  });

  it('reads JSON event lines and ignores other output', () => {
    const text = 'noise\n{"type":"step","op":"stop","step":"restore","status":"done","message":"ok","at":1}\n{bad json\n{"type":"result","op":"stop","ok":true,"exitCode":0,"message":"done","at":2}\n';
    expect(parseEventLines(text).map((e) => e.type)).toEqual(['step', 'result']);
  });
});
