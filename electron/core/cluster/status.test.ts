import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterStatus } from './status';
import { setCliName } from '../../../shared/fix';
import { startTestApiServer } from '../../../e2e/support/cluster-test-bed';

let server: Awaited<ReturnType<typeof startTestApiServer>>;
beforeAll(async () => {
  server = await startTestApiServer();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(async () => {
  await server.setMode('ok');
});

describe('clusterStatus against the fake API server', () => {
  it('reports the recorded K2s cluster as ok', async () => {
    const s = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(s).toEqual({
      state: 'ok',
      message: 'Kubernetes v1.33.3: 1/1 nodes Ready, 2/2 CoreDNS pods ready, kube-dns at 172.21.0.10.',
      kubeconfigPath: server.kubeconfigPath,
      context: 'k2s-test',
      apiServer: server.url,
      version: 'v1.33.3',
      nodes: [{ name: 'k2s-host', ready: true, kubeletVersion: 'v1.33.3' }],
      coreDnsPods: [
        { name: 'coredns-674b8bbfcf-9x7kq', ready: true, restarts: 0, node: 'k2s-host' },
        { name: 'coredns-674b8bbfcf-tw4rz', ready: true, restarts: 0, node: 'k2s-host' },
      ],
      kubeDnsIp: '172.21.0.10',
    });
  });

  it('maps a closed listener to unreachable, keeping context and server', async () => {
    await server.setMode('down');
    const started = Date.now();
    const s = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.state).toBe('unreachable');
    expect(s.message).toBe(`The Kubernetes API server at ${server.url} refused the connection (ECONNREFUSED); is the cluster running (\`k2s status\`)?`);
    expect(s.context).toBe('k2s-test');
    expect(s.apiServer).toBe(server.url);
    expect(s.nodes).toEqual([]);
  });

  it('in the sandbox (no `k2s` there, walk 11 L12): the same refusal names the sandbox\'s control that brings its API back', async () => {
    await server.setMode('down');
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      const s = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
      expect(s.message).toBe(`The Kubernetes API server at ${server.url} refused the connection (ECONNREFUSED); is the sandbox's test API down? In a root shell in the checkout, \`npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up\` brings it back.`);
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  it('maps a server that never answers to unreachable within the timeout', async () => {
    await server.setMode('hang');
    const started = Date.now();
    const s = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(s.state).toBe('unreachable');
    expect(s.message).toContain('did not answer within 300 ms');
  });

  it('maps 401 to unauthorized and a non-JSON body to error', async () => {
    await server.setMode('unauthorized');
    const u = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(u.state).toBe('unauthorized');
    expect(u.message).toContain(`rejected the credentials in ${server.kubeconfigPath} (401 Unauthorized)`);
    await server.setMode('garbage');
    const g = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(g.state).toBe('error');
    expect(g.message).toContain('with something that is not JSON');
  });

  it('reports no-kubeconfig for null, a missing file, and a file that is not a kubeconfig', async () => {
    expect((await clusterStatus({ kubeconfigPath: null })).state).toBe('no-kubeconfig');
    const missing = path.join(path.dirname(server.kubeconfigPath), 'missing.kubeconfig');
    const m = await clusterStatus({ kubeconfigPath: missing });
    expect(m.state).toBe('no-kubeconfig');
    expect(m.message).toBe(
      `The kubeconfig ${missing} does not exist; pass an existing one with --kubeconfig (K2s writes /etc/kubernetes/admin.conf).`,
    );
    const empty = path.join(path.dirname(server.kubeconfigPath), 'empty.kubeconfig');
    await writeFile(empty, 'apiVersion: v1\nkind: Config\n');
    expect((await clusterStatus({ kubeconfigPath: empty })).state).toBe('no-kubeconfig');
  });

  it("no-kubeconfig names the line that starts the app with one as this install runs it (the window's Start reason quotes it); other states name none", async () => {
    // A checkout (the default runtime): npm start.
    expect((await clusterStatus({ kubeconfigPath: null })).appKubeconfigCommand).toBe('npm start -- --kubeconfig PATH');
    const missing = path.join(path.dirname(server.kubeconfigPath), 'missing.kubeconfig');
    setCliName('k2s-dns');
    try {
      // The installed package: its CLI's app verb, for no lookup and for a path that does not exist alike.
      expect((await clusterStatus({ kubeconfigPath: null })).appKubeconfigCommand).toBe('k2s-dns app --kubeconfig PATH');
      expect((await clusterStatus({ kubeconfigPath: missing })).appKubeconfigCommand).toBe('k2s-dns app --kubeconfig PATH');
      await server.setMode('down');
      const down = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
      expect(down.state).toBe('unreachable');
      expect(down).not.toHaveProperty('appKubeconfigCommand');
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  it('reports error when no CoreDNS pod is ready', async () => {
    const pods = {
      kind: 'PodList',
      items: [
        {
          metadata: { name: 'coredns-x' },
          spec: { nodeName: 'k2s-host' },
          status: { conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: [{ name: 'coredns', ready: false, restartCount: 7, image: 'i', imageID: '' }] },
        },
      ],
    };
    server.setObject('/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-dns', pods);
    const s = await clusterStatus({ kubeconfigPath: server.kubeconfigPath, timeoutMs: 2000 });
    expect(s.state).toBe('error');
    expect(s.coreDnsPods).toEqual([{ name: 'coredns-x', ready: false, restarts: 7, node: 'k2s-host' }]);
    expect(s.message).toContain('cluster DNS cannot work (0/1 CoreDNS pods ready)');
  });
});
