/** Fix texts follow how the CLI was started: the package's /usr/bin/k2s-dns, or a checkout's npx. */
import { afterEach, describe, expect, it } from 'vitest';
import { LIB_DIR } from '../../scripts/package/layout';
import { cliCommand, clusterRunningHint, DRIFT_CHOICE, resolverFileWays, setCliName, shellCommand } from '../../shared/fix';
import { fixText } from '../../shared/health';
import { APP_ROOT } from './app-root';
import { cliInvocation, cliWrapper, PACKAGED_APP_ROOT, sandboxNameserver, useCliInvocation } from './cli-invocation';

afterEach(() => setCliName('npx k2s-dns'));

describe('the CLI name in fix texts', () => {
  it('is the package layout\'s directory', () => {
    expect(PACKAGED_APP_ROOT).toBe(`${LIB_DIR}/`);
  });

  it('installed (/usr/lib/k2s-dns): `sudo k2s-dns …` in every kind of fix text', () => {
    expect(useCliInvocation('/usr/lib/k2s-dns/')).toBe('k2s-dns');
    expect(cliCommand('stop', true)).toBe('sudo k2s-dns stop');
    expect(cliCommand('diff')).toBe('k2s-dns diff');
    expect(DRIFT_CHOICE.restore.cli).toBe('sudo k2s-dns stop --on-drift restore');
    expect(fixText('start', 'cli')).toBe('sudo k2s-dns start');
    expect(fixText('restore', 'cli')).toBe('"Keep their file" (the default): sudo k2s-dns stop --on-drift keep && sudo k2s-dns start; or "Restore my original": sudo k2s-dns stop --on-drift restore && sudo k2s-dns start');
    expect(fixText('recover', 'cli')).not.toContain('npx');
  });

  it('a checkout (this repository, or any other directory): `sudo npx k2s-dns …`', () => {
    expect(cliInvocation(APP_ROOT)).toBe('npx k2s-dns');
    expect(useCliInvocation('/home/ada/src/k2s-dns/')).toBe('npx k2s-dns');
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
    // Only the exact packaged directory counts, not one that merely starts like it.
    expect(cliInvocation('/usr/lib/k2s-dns-old/')).toBe('npx k2s-dns');
  });

  it('$K2S_DNS_CLI (the sandbox\'s wrapper, root by itself): fix texts name it, without sudo, so a pasted line acts inside the sandbox (third walk)', () => {
    const env = { K2S_DNS_CLI: '/tmp/k2sdns-app-Ab12/k2s-dns' };
    expect(useCliInvocation('/home/ada/src/k2s-dns/', env)).toBe('/tmp/k2sdns-app-Ab12/k2s-dns');
    expect(cliCommand('stop --restore start', true)).toBe('/tmp/k2sdns-app-Ab12/k2s-dns stop --restore start');
    expect(fixText('restore', 'cli')).toBe('"Keep their file" (the default): /tmp/k2sdns-app-Ab12/k2s-dns stop --on-drift keep && /tmp/k2sdns-app-Ab12/k2s-dns start; or "Restore my original": /tmp/k2sdns-app-Ab12/k2s-dns stop --on-drift restore && /tmp/k2sdns-app-Ab12/k2s-dns start');
    // Another program's command goes through the wrapper's `sh -c` (sixth walk M2).
    expect(shellCommand('chmod o-w /etc/resolv.conf', true)).toBe("/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'chmod o-w /etc/resolv.conf'");
    // Not a path, or with characters the shell reads: ignored.
    expect(cliWrapper({ K2S_DNS_CLI: 'k2s-dns; rm -rf /' })).toBeNull();
    expect(cliWrapper({ K2S_DNS_CLI: '/tmp/a b' })).toBeNull();
    expect(useCliInvocation('/usr/lib/k2s-dns/', { K2S_DNS_CLI: 'relative/k2s-dns' })).toBe('k2s-dns');
    expect(cliCommand('stop', true)).toBe('sudo k2s-dns stop');
    expect(shellCommand('chmod o-w /etc/resolv.conf', true)).toBe('sudo chmod o-w /etc/resolv.conf');
  });

  it('$K2S_DNS_SANDBOX_NAMESERVER beside the wrapper (the sandbox): a resolver-file fix writes that nameserver through it, and the API hint names the sandbox\'s control (walk 11 M1, L12)', () => {
    useCliInvocation('/home/ada/src/k2s-dns/', { K2S_DNS_CLI: '/tmp/k2sdns-app-Ab12/k2s-dns', K2S_DNS_SANDBOX_NAMESERVER: '192.0.2.53' });
    expect(resolverFileWays()).toBe("in the sandbox, `/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'rm -f /etc/resolv.conf && echo nameserver 192.0.2.53 > /etc/resolv.conf'` writes one naming its network's nameserver, 192.0.2.53");
    expect(clusterRunningHint()).toContain('npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up');
    // Without a wrapper it says nothing (a host): the host's words.
    useCliInvocation('/usr/lib/k2s-dns/', { K2S_DNS_SANDBOX_NAMESERVER: '192.0.2.53' });
    expect(resolverFileWays()).toContain('as root (sudo) with a line such as `nameserver 192.0.2.1`');
    expect(clusterRunningHint()).toBe('is the cluster running (`k2s status`)?');
    // Not an IPv4 address (a shell word or a placeholder): ignored.
    expect(sandboxNameserver({ K2S_DNS_SANDBOX_NAMESERVER: '192.0.2.53; rm -rf /' })).toBeNull();
    expect(sandboxNameserver({ K2S_DNS_SANDBOX_NAMESERVER: '<your router>' })).toBeNull();
    expect(sandboxNameserver({ K2S_DNS_SANDBOX_NAMESERVER: '256.0.0.1' })).toBeNull();
  });
});

describe('packagedLauncher', () => {
  it('is the package\'s launcher only for the package\'s own code, and only when the launcher is there', async () => {
    const { packagedLauncher } = await import('./cli-invocation');
    expect(packagedLauncher('/usr/lib/k2s-dns/dist', () => true)).toBe('/usr/bin/k2s-dns');
    expect(packagedLauncher('/usr/lib/k2s-dns', () => true)).toBe('/usr/bin/k2s-dns');
    expect(packagedLauncher('/usr/lib/k2s-dns/dist', () => false)).toBeNull();
    expect(packagedLauncher('/home/dev/k2s-dns/dist', () => true)).toBeNull();
    expect(packagedLauncher('/usr/lib/k2s-dns-x/dist', () => true)).toBeNull();
  });
});
