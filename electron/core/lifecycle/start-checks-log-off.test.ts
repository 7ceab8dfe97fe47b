/**
 * tidy29: start wrote start's checks (capture/start-checks.ts, two fsyncs) also with
 * --no-log-queries, where no exact query log has rows to mark. Now only a start whose exact
 * query log is on writes them.
 */
import { describe, expect, it } from 'vitest';
import { startDns } from './start';
import { START_CHECKS_FILE } from '../capture/start-checks';
import { trackedHosts, TEST_START_OPTS, withStandInCapture } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const quiet = () => undefined;

/** A host whose exact query log's companion is a stand-in that only says it is ready. */
async function hostWithCapture() {
  const h = await newHost();
  withStandInCapture(h);
  return h;
}

describe("start's checks are written only beside an exact query log", () => {
  it('with the exact query log on: written, naming the cluster name verify asked', async () => {
    const h = await hostWithCapture();
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    const record = JSON.parse((await h.deps.fs.readFile(START_CHECKS_FILE)).toString());
    expect(record.names).toContain('kubernetes.default.svc.cluster.local');
  });

  it('with --no-log-queries: not written', async () => {
    const h = await hostWithCapture();
    expect(await startDns(h.deps, { ...TEST_START_OPTS, logQueries: false }, quiet)).toMatchObject({ ok: true });
    expect(await h.deps.fs.lstat(START_CHECKS_FILE)).toBeNull();
  });
});

describe("a failed start's checks (tidy30: its rows got `— K2s DNS started … —` as if it had served the host)", () => {
  it('a start whose verify fails and rolls back marks its window rolledBack; a start after it writes a new one and keeps that mark', async () => {
    const h = await hostWithCapture();
    h.world.systemAnswer = null;
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: false, code: 'VERIFY_SYSTEM' });
    const failedRun = JSON.parse((await h.deps.fs.readFile(START_CHECKS_FILE)).toString());
    expect(failedRun).toMatchObject({ names: expect.arrayContaining(['kubernetes.default.svc.cluster.local']), rolledBack: true });
    h.world.systemAnswer = '172.21.0.1';
    expect(await startDns(h.deps, TEST_START_OPTS, quiet)).toMatchObject({ ok: true });
    const record = JSON.parse((await h.deps.fs.readFile(START_CHECKS_FILE)).toString());
    expect(record.rolledBack).toBeUndefined();
    expect(record.earlier).toEqual([failedRun]);
  });
});
