/**
 * brk30 (sandbox): a kubeconfig whose exec credential plugin hangs held `k2s-dns start` in its
 * discover step until killed (60 s harness); one printing 200 MB took 12 s and was reported as the
 * API server answering "something that is not JSON"; one exiting 1 said only "failed (Error)".
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpMethod, KubeConfig, ServerConfiguration } from './client-node-parts';
import { boundedExecAuth } from './exec-credential';

const dir = mkdtempSync(join(tmpdir(), 'k2s-exec-cred-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A KubeConfig whose user's exec plugin is the shell script `body`. */
function withPlugin(name: string, body: string): { kc: KubeConfig; plugin: string } {
  const plugin = join(dir, name);
  writeFileSync(plugin, `#!/bin/sh\n${body}\n`);
  chmodSync(plugin, 0o755);
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: `u-${name}`, exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' } }],
    contexts: [{ name: 'x', cluster: 'c', user: `u-${name}` }],
    currentContext: 'x',
  });
  return { kc, plugin };
}
const request = () => new ServerConfiguration('https://127.0.0.1:1', {}).makeRequestContext('/version/', HttpMethod.GET);
const TOKEN = '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t0k"}}';

describe('a kubeconfig exec credential plugin, bounded', () => {
  it('gives its token to the request', async () => {
    const { kc } = withPlugin('ok', `echo '${TOKEN}'`);
    const r = request();
    await boundedExecAuth(kc, '/k', 2000, 4096).applySecurityAuthentication(r);
    expect(r.getHeaders()['Authorization']).toBe('Bearer t0k');
  });
  it('one that hangs (in a child holding its output): killed at the deadline, named as the plugin', async () => {
    const { kc, plugin } = withPlugin('hang', 'sleep 30 & sleep 30');
    // The plugin sleeps 30 s: unbounded, this outlasts the test's own timeout.
    await expect(boundedExecAuth(kc, '/k', 300, 4096).applySecurityAuthentication(request())).rejects.toThrow(`The kubeconfig /k's exec credential plugin ${plugin} did not finish within 300 ms`);
  });
  it('one printing without end: killed past the bound', async () => {
    const { kc, plugin } = withPlugin('flood', 'exec head -c 100000000 /dev/zero');
    await expect(boundedExecAuth(kc, '/k', 20_000, 4096).applySecurityAuthentication(request())).rejects.toThrow(`plugin ${plugin} printed more than 4096 bytes`);
  });
  it('one that fails or prints no JSON: its exit status or that, not the API server', async () => {
    const failing = withPlugin('fail', 'echo secret-ish >&2; exit 3');
    await expect(boundedExecAuth(failing.kc, '/k', 2000, 4096).applySecurityAuthentication(request())).rejects.toThrow(`plugin ${failing.plugin} exited with status 3,`);
    const garbage = withPlugin('garbage', 'echo hello');
    await expect(boundedExecAuth(garbage.kc, '/k', 2000, 4096).applySecurityAuthentication(request())).rejects.toThrow(`plugin ${garbage.plugin} printed no ExecCredential JSON`);
  });
  it('one that prints its credential and exits but leaves a child holding its output: its token, not a wait for that child', async () => {
    // A plugin starting a background helper (an agent, a browser for a login) that keeps stdout open:
    // 'close' never came while the helper lived (30 s here; for ever for a daemon), though the plugin exited 0.
    const { kc } = withPlugin('daemon', `sleep 30 & echo '${TOKEN}'`);
    const r = request();
    await boundedExecAuth(kc, '/k', 20_000, 4096).applySecurityAuthentication(r);
    expect(r.getHeaders()['Authorization']).toBe('Bearer t0k');
  }, 10_000);
});
