/**
 * Walk 11 L5: `start` on a /etc/resolv.conf mode 0666 printed the RESOLV_CONF_WRITABLE paragraph
 * twice (in "OK, WITH WARNINGS: … Warning: …" and on "warning [RESOLV_CONF_WRITABLE]: …"): the
 * CLI prints it once, on the warning line, and the result line refers to it.
 */
import { describe, expect, it } from 'vitest';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { startDns } from '../core/lifecycle/start';
import { setCliName } from '../../shared/fix';
import { TEST_START_OPTS, trackedHosts } from '../../e2e/support/test-deps';
import { printEvent, type PrintedSteps } from './print';

const newHost = trackedHosts();

describe('start with a warning carried in its result message', () => {
  it('RESOLV_CONF_WRITABLE: its paragraph once, the result line says where it is', async () => {
    setCliName('k2s-dns');
    const h = await newHost('nameserver 192.0.2.53\n');
    await chmod(join(h.root, 'etc/resolv.conf'), 0o666);
    const out: string[] = [];
    const printed: PrintedSteps = { steps: [] };
    const r = await startDns(h.deps, TEST_START_OPTS, (e) => printEvent(e, false, (s) => out.push(s), printed));
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    const w = r.warnings?.find((x) => x.code === 'RESOLV_CONF_WRITABLE');
    expect(w?.message).toContain('writable by every user (mode 0666)');
    // The event sink already saw the result: printed once, as the CLI does.
    const result = out.filter((l) => l.startsWith('OK'));
    expect(result).toHaveLength(1);
    expect(result[0]).toMatch(/^OK, WITH WARNINGS: K2s DNS is running: cluster\.local and 2 more zones go to CoreDNS at 172\.21\.0\.10, everything else to 192\.0\.2\.53\. See the warning below\.$/);
    expect(out).toContain(`warning [RESOLV_CONF_WRITABLE]: ${w!.message}`);
    expect(out.join('\n').split(w!.message).length - 1).toBe(1);
  });
});
