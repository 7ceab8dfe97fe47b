import { describe, expect, it } from 'vitest';
import { inProcessApi } from '../../../e2e/support/in-process-api';
import type { K2sDnsApi } from '../../../shared/api';
import { createDiagnosticsStore, selectGroups } from './diagnostics';


describe('diagnostics store', () => {
  it('runs doctor:run and groups the findings worst first', async () => {
    const store = createDiagnosticsStore(inProcessApi({ running: true }), () => 1_700_000_000_000);
    expect(selectGroups(store.getState())).toEqual([]);
    const run = store.getState().run();
    expect(store.getState().running).toBe(true);
    await run;
    const s = store.getState();
    expect(s).toMatchObject({ running: false, error: null, ranAt: 1_700_000_000_000 });
    expect(s.findings!.map((f) => f.id)).toEqual([
      'lifecycle-state', 'resolv-immutable', 'resolv-bind-mount', 'wsl', 'port-53', 'nameserver-loop', 'nameserver-count',
      'kubelet-resolvconf', 'container-runtime-dns', 'kubeswitch', 'dnsproxy-version', 'cluster',
    ]);
    const groups = selectGroups(s);
    expect(groups.map((g) => [g.severity, g.findings.map((f) => f.id)])).toEqual([
      ['warn', ['container-runtime-dns', 'kubeswitch']],
      ['ok', ['lifecycle-state', 'resolv-immutable', 'resolv-bind-mount', 'wsl', 'port-53', 'nameserver-loop', 'nameserver-count', 'kubelet-resolvconf', 'dnsproxy-version', 'cluster']],
    ]);
    expect(groups[0]!.findings[0]!.fix).toBe('Give containers a reachable nameserver: "dns": ["172.19.1.1"] (the KubeSwitch listener) in /etc/docker/daemon.json, or --dns 172.19.1.1 per container, and restart the runtime.');
  });

  it('reflects the fake host state: container runtimes are info while stopped', async () => {
    const store = createDiagnosticsStore(inProcessApi());
    await store.getState().run();
    expect(store.getState().findings!.find((f) => f.id === 'container-runtime-dns')!.severity).toBe('info');
    expect(selectGroups(store.getState()).map((g) => g.severity)).toEqual(['warn', 'info', 'ok']);
  });

  it('runs one at a time (a call during a run makes one more follow it) and keeps the backend error message', async () => {
    let calls = 0;
    const api = inProcessApi();
    const failing: K2sDnsApi = {
      ...api,
      doctorRun: () => {
        calls++;
        return Promise.reject(new Error('The app backend is not reachable; restart k2s-dns ui.'));
      },
    };
    const store = createDiagnosticsStore(failing);
    await Promise.all([store.getState().run(), store.getState().run(), store.getState().run()]);
    // The two calls during the first run make one more run after it, not two, and never at once.
    expect(calls).toBe(2);
    expect(store.getState()).toMatchObject({ running: false, findings: null, ranAt: null, error: 'The app backend is not reachable; restart k2s-dns ui.' });
  });
});
