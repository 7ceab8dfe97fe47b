/**
 * The held capture companion's start when its [Install] link cannot be made (a read-only
 * /etc/systemd/system, a path in the way: unit-links.ts): the start fails with that reason. On
 * the booted Debian 13 host the link's failure ended the whole CLI mid-start instead (Node's
 * unhandled rejection: a stack trace, no rollback), since the held path awaited the restart and
 * the go before it awaited the link.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_FAILED_FILE, CAPTURE_FLAGS_FILE, CAPTURE_HOLD_FILE, CAPTURE_READY_FILE } from '../capture/capture-args';
import { awaitHold } from '../capture/hold-wait';
import { systemdCapture } from './capture-companion';
import { fakeSystemctl, SYSTEMD_ARGV, systemdRoot } from './capture-companion.fixture';
import type { HostFs } from './host-fs';

const LINK = '/etc/systemd/system/k2s-dnsproxy.service.wants/k2s-dnsproxy-capture.service';

describe('held capture companion: its link fails', () => {
  let root = '';
  afterEach(async () => root && rm(root, { recursive: true, force: true }));

  it('the start rejects with the link\'s error (after the go, as the held path awaits it), not an unhandled rejection', async () => {
    const r = await systemdRoot();
    root = r.root;
    const { procDir } = r;
    let failLink = false;
    let linkFailed: () => void = () => undefined;
    const linkTried = new Promise<void>((res) => (linkFailed = res));
    // The link's lstat fails as a read-only or broken file system makes it; the go is written
    // only once that failure has been seen by the event loop (a turn later), so a start that does
    // not hold on to the link's promise by then rejects unhandled.
    const fs: HostFs = new Proxy(r.fs, {
      get(target, prop, recv) {
        if (prop === 'lstat') {
          return async (p: string) => {
            if (failLink && p === LINK) {
              linkFailed();
              throw Object.assign(new Error(`EROFS: read-only file system, lstat '${p}'`), { code: 'EROFS' });
            }
            return target.lstat(p);
          };
        }
        if (prop === 'writeFileAtomic') {
          return async (p: string, data: Buffer | string, o: { mode: number }) => {
            if (failLink && p === CAPTURE_HOLD_FILE && String(data) === 'go\n') {
              await linkTried;
              await new Promise((res) => setImmediate(res));
            }
            return target.writeFileAtomic(p, data, o);
          };
        }
        return Reflect.get(target, prop, recv) as unknown;
      },
    });
    let pid = 6000;
    let mainPid = 0;
    const went: string[] = [];
    const { exec } = fakeSystemctl(fs, async () => {
      const me = pid++;
      await mkdir(path.join(procDir, String(me)), { recursive: true });
      await writeFile(path.join(procDir, String(me), 'cmdline'), `${SYSTEMD_ARGV.join('\0')}\0`);
      mainPid = me;
      void (async () => {
        const verdict = await awaitHold(fs.real(CAPTURE_HOLD_FILE), '/proc', 20, 30_000);
        went.push(`${verdict} ${(await readFile(fs.real(CAPTURE_FLAGS_FILE), 'utf8').catch(() => 'no flags')).trim()}`);
        if (verdict === 'go') await fs.writeFileAtomic(CAPTURE_READY_FILE, `${me}\n`, { mode: 0o644 });
      })();
    }, () => mainPid);
    // A first start writes the unit (prepare holds only over the unit as start writes it), then stops.
    await systemdCapture(fs, exec, procDir).start(SYSTEMD_ARGV);
    await systemdCapture(fs, exec, procDir).stop();
    went.length = 0;
    const cap = systemdCapture(fs, exec, procDir);
    const held = await cap.prepare!(SYSTEMD_ARGV.slice(0, 3));
    failLink = true;
    await expect(cap.start(SYSTEMD_ARGV, held)).rejects.toThrow(`EROFS: read-only file system, lstat '${LINK}'`);
    // Remembered for the exact log, as every failed start is.
    expect((await readFile(fs.real(CAPTURE_FAILED_FILE), 'utf8')).split('\n')[0]).toContain('the capture did not start: EROFS');
    // The held companion had its go; it wrote its ready file before the temp root goes.
    for (const deadline = Date.now() + 30_000; went.length === 0 && Date.now() < deadline; ) await new Promise((res) => setTimeout(res, 10));
    expect(went).toEqual(['go go ["--listen","127.0.0.1:53","--port","53"]']);
    for (const deadline = Date.now() + 30_000; !(await fs.lstat(CAPTURE_READY_FILE)) && Date.now() < deadline; ) await new Promise((res) => setTimeout(res, 10));
  });
});
