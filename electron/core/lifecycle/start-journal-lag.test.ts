/**
 * start's journal writes after save's are not waited for by their own step (teardown.ts
 * journaledReporter): one in flight, waited for at the next step and before the journal is
 * cleared. Attacked here on a temp root: a journal write that fails (ENOSPC) at each of start's
 * writes, and journal writes that land late, with the start failing at each step or succeeding —
 * the start ends with no journal on disk (none lands after it was cleared), the resolver back
 * byte for byte on failure, and the next start finds nothing to recover.
 */
import { describe, expect, it } from 'vitest';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LifecycleEvent, ResultEvent } from '../../../shared/lifecycle-events';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { startDns } from './start';
import { stopDns } from './stop';
import { TEST_START_OPTS, trackedHosts, type makeTestHost } from '../../../e2e/support/test-deps';

const newHost = trackedHosts();
const ORIGINAL = 'nameserver 192.0.2.53\nsearch corp.example\n';
type Host = Awaited<ReturnType<typeof makeTestHost>>;

/**
 * Journal writes of `h` go through `gate(n, write)` (n: 1-based count of journal writes);
 * `inFlight` counts those begun and not yet settled (one still in flight when start returned
 * could land after its journal was cleared).
 */
function gateJournal(h: Host, gate: (n: number, write: () => Promise<void>) => Promise<void>): { writes: () => number; inFlight: () => number; ungate: () => void } {
  const fs = h.deps.fs;
  const real = fs.writeFileAtomic.bind(fs);
  let n = 0;
  let open = 0;
  const gated = (p: string, data: Buffer | string, o: { mode: number }) => {
    open++;
    return gate(++n, () => real(p, data, o)).finally(() => void open--);
  };
  h.deps.fs = { ...fs, writeFileAtomic: (p, data, o) => (p === K2S_PATHS.journal ? gated(p, data, o) : real(p, data, o)) };
  return { writes: () => n, inFlight: () => open, ungate: () => void (h.deps.fs = fs) };
}

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
const journalGone = async (h: Host) => expect(await lstat(join(h.root, 'var/lib/k2s/dns-lifecycle-journal.json')).then(() => 'present', () => 'absent')).toBe('absent');

describe('a journal write that fails (ENOSPC) fails the start cleanly, whichever write it is', () => {
  it('counts start\'s journal writes, then fails each one in turn', async () => {
    const probe = await newHost(ORIGINAL);
    const counted = gateJournal(probe, (_n, write) => write());
    expect((await startDns(probe.deps, TEST_START_OPTS, () => undefined)).ok).toBe(true);
    const total = counted.writes();
    // save, discover, config, service, activate, verify.
    expect(total).toBe(6);
    for (let fail = 1; fail <= total; fail++) {
      const h = await newHost(ORIGINAL);
      const g = gateJournal(h, async (n, write) => {
        if (n === fail) throw enospc();
        return write();
      });
      const events: LifecycleEvent[] = [];
      const r = await startDns(h.deps, TEST_START_OPTS, (e) => events.push(e));
      expect({ fail, ok: r.ok, exitCode: r.exitCode }).toEqual({ fail, ok: false, exitCode: fail === 1 ? 3 : 1 });
      expect(r.code).toBe('NO_SPACE');
      if (fail > 1) {
        // Named as the journal's write on the state directory's filesystem, whichever step it surfaced at.
        expect(r.message).toBe('No space left on the filesystem holding /var/lib/k2s/dns-lifecycle-journal.json, so /var/lib/k2s/dns-lifecycle-journal.json cannot be written; free space there (df -h /var/lib/k2s/dns-lifecycle-journal.json), then start again. Every change was rolled back; the host resolver is as before.');
      }
      expect(g.inFlight()).toBe(0);
      await journalGone(h);
      expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
      expect(h.services.running).toBe(false);
      // The next start finds nothing interrupted (no recovery of this one) and runs.
      const again: LifecycleEvent[] = [];
      g.ungate();
      expect((await startDns(h.deps, TEST_START_OPTS, (e) => again.push(e))).ok).toBe(true);
      expect(again.filter((e) => e.type === 'step' && e.step === 'recover')).toEqual([]);
      expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
    }
  });
});

describe('late journal writes never land after the journal is cleared', () => {
  const failures: Array<[string, (h: Host) => void]> = [
    ['succeeds', () => undefined],
    ['fails at discover', (h) => void (h.world.discovery = new Error('API server down'))],
    ['fails at service', (h) => void (h.services.exitsImmediately = true)],
    ['fails at verify', (h) => {
      const q = h.deps.query;
      h.deps.query = async (o) => (o.name.toLowerCase().startsWith('kubernetes.default.svc.') ? { ...(await q(o)), rcode: 'SERVFAIL', answers: [] } : q(o));
    }],
  ];
  for (const [what, arrange] of failures) {
    // verify fails only at its 15 s deadline: one delay there.
    for (const delayMs of what === 'fails at verify' ? [5] : [0, 5, 30]) {
      it(`a start that ${what}, each journal write landing ${delayMs} ms late: none is in flight at its end, no journal is left`, async () => {
        const h = await newHost(ORIGINAL);
        arrange(h);
        const g = gateJournal(h, async (_n, write) => {
          await new Promise((r) => setTimeout(r, delayMs));
          await write();
        });
        const r: ResultEvent = await startDns(h.deps, { ...TEST_START_OPTS, readyTimeoutMs: 50 }, () => undefined);
        expect(r.ok).toBe(what === 'succeeds');
        expect({ begun: g.writes() > 1, inFlight: g.inFlight() }).toEqual({ begun: true, inFlight: 0 });
        await journalGone(h);
        if (what !== 'succeeds') expect(await readFile(join(h.root, 'etc/resolv.conf'), 'utf8')).toBe(ORIGINAL);
        else expect((await stopDns(h.deps, {}, () => undefined)).ok).toBe(true);
      });
    }
  }
});
