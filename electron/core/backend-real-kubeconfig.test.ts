import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRealBackend } from './backend-real';
import { createNodeDeps } from './lifecycle/node-deps';
import { ADMIN_KUBECONFIG } from './cluster/kubeconfig';
import { kubectlCommand, setKubectlKubeconfig } from '../../shared/fix';

const tmp = mkdtempSync(join(tmpdir(), 'k2s-dns-kc-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const savedEnv = process.env.KUBECONFIG;
afterEach(() => {
  setKubectlKubeconfig(null);
  if (savedEnv === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = savedEnv;
});

/** A stand-in for pkexec that records its argv and answers with one result line. */
function recordingPkexec(): { path: string; argv: () => string[] } {
  const path = join(tmp, `pkexec-${Math.random().toString(36).slice(2)}`);
  const log = `${path}.argv`;
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\necho '{"type":"result","op":"start","ok":true,"exitCode":0,"message":"started","at":1}'\n`);
  chmodSync(path, 0o755);
  return { path, argv: () => readFileSync(log, 'utf8').trimEnd().split('\n') };
}

const kubeconfigFile = join(tmp, 'user-kubeconfig.yaml');
writeFileSync(kubeconfigFile, 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\nusers:\n- name: u\n  user: {token: t}\n');

// A real admin.conf on this machine would come first in the order (and be the one shown).
describe.skipIf(existsSync(ADMIN_KUBECONFIG))('the kubeconfig the window shows is the one Start uses', () => {
  it('$KUBECONFIG seen by the app (pkexec drops it) is shown and passed to the helper as --kubeconfig', async () => {
    process.env.KUBECONFIG = kubeconfigFile;
    const pk = recordingPkexec();
    const backend = createRealBackend({
      deps: await createNodeDeps(),
      launcher: { uid: 1000, nodePath: '/nonexistent/node', helperScript: '/nonexistent/h.mjs', installedHelper: '/usr/lib/k2s-dns/k2s-dns-helper', pkexec: pk.path, installGap: () => null },
    });
    const shown = await backend.clusterStatus({});
    expect(shown.kubeconfigPath).toBe(kubeconfigFile);
    // Resolved once: a different $KUBECONFIG later changes neither the window nor Start.
    process.env.KUBECONFIG = join(tmp, 'other-that-exists.yaml');
    writeFileSync(process.env.KUBECONFIG, '');
    expect(await backend.dnsStart({})).toMatchObject({ ok: true });
    expect(pk.argv()).toEqual(['/usr/lib/k2s-dns/k2s-dns-helper', 'start', '--kubeconfig', kubeconfigFile]);
    expect((await backend.clusterStatus({})).kubeconfigPath).toBe(kubeconfigFile);
    // The window's printed kubectl lines (the CoreDNS-down fix the verdict carries) name it too (walk 10 H1).
    expect(kubectlCommand('-n kube-system logs -l k8s-app=kube-dns')).toBe(`kubectl --kubeconfig ${kubeconfigFile} -n kube-system logs -l k8s-app=kube-dns`);
  });

  it('a kubeconfig this user cannot read is not passed: the helper looks it up itself (admin.conf first, as root)', async () => {
    process.env.KUBECONFIG = kubeconfigFile;
    const pk = recordingPkexec();
    const backend = createRealBackend({
      deps: await createNodeDeps(),
      canRead: () => false,
      launcher: { uid: 1000, nodePath: '/nonexistent/node', helperScript: '/nonexistent/h.mjs', installedHelper: '/usr/lib/k2s-dns/k2s-dns-helper', pkexec: pk.path, installGap: () => null },
    });
    await backend.dnsStart({ engine: 'dnsmasq' });
    expect(pk.argv()).toEqual(['/usr/lib/k2s-dns/k2s-dns-helper', 'start', '--engine', 'dnsmasq']);
  });
});
