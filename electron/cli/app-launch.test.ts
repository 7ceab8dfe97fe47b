/**
 * The window's "restart the app with a kubeconfig" line names the command that started it (new
 * user, session 30: after `npm start` as a user on a root-owned checkout it named `npx k2s-dns app
 * --kubeconfig PATH`, which npx refuses there with EPERM).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { appKubeconfigCommand, asRootWays, cliCommand, setAppVerb, setCliName } from '../../shared/fix';
import { appLaunchLine, cliLaunchName } from './app-launch';

const ROOT = '/srv/k2s-dns/';

describe('appLaunchLine: the app as it was started', () => {
  afterEach(() => {
    setAppVerb(null);
    setCliName('npx k2s-dns');
  });
  it('npm start (the README quick start): `npm start --`, never npx', () => {
    const line = appLaunchLine('app', 'npx k2s-dns', { npm_lifecycle_event: 'start', npm_command: 'start' }, ROOT, ROOT);
    expect(line).toBe('npm start --');
    setAppVerb('app', line);
    expect(appKubeconfigCommand()).toBe('npm start -- --kubeconfig PATH');
  });
  it('node bin/k2s-dns.mjs in the checkout, or by its absolute path from elsewhere', () => {
    expect(appLaunchLine('app', 'npx k2s-dns', {}, '/srv/k2s-dns', ROOT)).toBe('node bin/k2s-dns.mjs app');
    expect(appLaunchLine('ui', 'npx k2s-dns', {}, '/home/ada', ROOT)).toBe('node /srv/k2s-dns/bin/k2s-dns.mjs ui');
  });
  it('npx (it worked for this user), the installed CLI and a wrapper: that CLI and verb', () => {
    expect(appLaunchLine('ui', 'npx k2s-dns', { npm_command: 'exec' }, ROOT, ROOT)).toBe('npx k2s-dns ui');
    expect(appLaunchLine('app', 'k2s-dns', { npm_lifecycle_event: 'start' }, '/', '/usr/lib/k2s-dns/')).toBe('k2s-dns app');
  });
});

describe('cliLaunchName: the CLI in a user\'s hints, as it was run (new user, session 30: `npx k2s-dns …` hints fail with EPERM on a root-owned checkout)', () => {
  afterEach(() => setCliName('npx k2s-dns'));
  it('node bin/k2s-dns.mjs (relative in the checkout, absolute elsewhere) unless npx ran it; the installed CLI and a wrapper as they are', () => {
    expect(cliLaunchName('npx k2s-dns', {}, ROOT, ROOT)).toBe('node bin/k2s-dns.mjs');
    expect(cliLaunchName('npx k2s-dns', { npm_lifecycle_event: 'start', npm_command: 'start' }, '/home/ada', ROOT)).toBe('node /srv/k2s-dns/bin/k2s-dns.mjs');
    expect(cliLaunchName('npx k2s-dns', { npm_command: 'exec' }, ROOT, ROOT)).toBe('npx k2s-dns');
    expect(cliLaunchName('k2s-dns', {}, '/', '/usr/lib/k2s-dns/')).toBe('k2s-dns');
    expect(cliLaunchName('/tmp/k2sdns-app-Ab12/k2s-dns', {}, ROOT, ROOT)).toBe('/tmp/k2sdns-app-Ab12/k2s-dns');
  });
  it('the hints then name it, sudo and su lines too', () => {
    setCliName(cliLaunchName('npx k2s-dns', {}, ROOT, ROOT));
    expect(asRootWays('status')).toBe("as root: `sudo node bin/k2s-dns.mjs status`, or `su -c 'node bin/k2s-dns.mjs status'` where sudo is not installed");
    expect(cliCommand('queries')).toBe('node bin/k2s-dns.mjs queries');
  });
});
