/**
 * Test helper: starts e2e/bed's fake API server on 127.0.0.1 with a random port and a temp
 * kubeconfig dir under os.tmpdir(); `stop` closes it and removes the dir.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeApiServer, type FakeApiServer } from '../bed/fake-apiserver';

/** The repo's recorded Kubernetes objects. */
export const K8S_FIXTURES = fileURLToPath(new URL('../../fixtures/k8s', import.meta.url));

/** A running fake API server plus its cleanup. */
export async function startTestApiServer(): Promise<FakeApiServer & { stop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'k2s-dns-apiserver-'));
  const server = await startFakeApiServer({ fixturesDir: K8S_FIXTURES, kubeconfigDir: dir });
  return Object.assign(server, {
    async stop() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  });
}
