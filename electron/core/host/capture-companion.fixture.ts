/**
 * Test support for systemdCapture (capture-companion.ts): a temp root, a fake /proc entry of a
 * running companion and a fake `systemctl`/`journalctl`. Shared by capture-companion.test.ts and
 * capture-companion-fail.test.ts.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CAPTURE_READY_FILE } from '../capture/capture-args';
import { K2S_PATHS } from '../../../shared/k2s-paths';
import { createHostFs } from './host-fs-node';

type Fs = ReturnType<typeof createHostFs>;

/** What `systemctl --root=/ reenable|disable UNIT` does to the WantedBy=k2s-dnsproxy.service link under the test's root. */
async function linkLikeSystemctl(fs: Fs, args: readonly string[]): Promise<void> {
  if (args[0] !== '--root=/') return;
  const link = `/etc/systemd/system/k2s-dnsproxy.service.wants/${args[2]}`;
  if (args[1] === 'reenable') {
    await fs.mkdirp(path.dirname(link), 0o755);
    await fs.writeFileAtomic(link, '', { mode: 0o644 });
  } else if (args[1] === 'disable') await fs.remove(link);
}

/** The companion's command line the systemd tests start (node, its bundle, the verb, one listener and port). */
export const SYSTEMD_ARGV = ['/usr/bin/node', '/opt/k2s-dns/dist/k2s-dns-capture.cjs', 'capture-watch', '--listen', '127.0.0.1:53', '--port', '53'];

/** A temp root with the unit's and the run dir's directories, and its fake /proc. */
export async function systemdRoot(): Promise<{ fs: Fs; procDir: string; root: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'capture-companion-'));
  const fs = createHostFs(root);
  await fs.mkdirp(path.dirname(K2S_PATHS.captureUnit), 0o755);
  await fs.mkdirp(path.dirname(CAPTURE_READY_FILE), 0o755);
  return { fs, procDir: path.join(root, 'proc'), root };
}

/** Makes `pid` a companion in `procDir` (its cmdline), as the unit's process is from its start. */
export async function companionRuns(procDir: string, pid: number): Promise<void> {
  await mkdir(path.join(procDir, String(pid)), { recursive: true });
  await writeFile(path.join(procDir, String(pid), 'cmdline'), `${SYSTEMD_ARGV.join('\0')}\0`);
}

/** Makes `pid` a running companion in `procDir` (its cmdline) and writes its ready file, as capture-main.ts does once open. */
export async function companionUp(fs: Fs, procDir: string, pid: number): Promise<void> {
  await companionRuns(procDir, pid);
  await fs.writeFileAtomic(CAPTURE_READY_FILE, `${pid}\n`, { mode: 0o644 });
}

/**
 * A fake `systemctl` (and `journalctl`) for systemdCapture: records each systemctl call, links
 * like `systemctl --root=/`, loads the unit file at `daemon-reload` and answers `show` with
 * NeedDaemonReload by it, `show -P MainPID` with `mainPid` and `show -P InvocationID` with
 * `opts.invocationId`; `onRestart` plays the unit's companion, and a result it returns replaces a
 * successful restart's (a refused one). journalctl calls are answered by `opts.journal` (its
 * arguments → its stdout; '' without it) and recorded in `journals`.
 */
export function fakeSystemctl(fs: Fs, onRestart: () => Promise<{ code: number; stdout: string; stderr: string } | void>, mainPid: () => number = () => 0, opts: { invocationId?: () => string; journal?: (args: readonly string[]) => string } = {}) {
  const calls: string[] = [];
  const journals: string[] = [];
  let loaded: string | null = null;
  const ok = { code: 0, stdout: '', stderr: '' };
  const exec = { run: async (file: string, args: readonly string[]) => {
    if (file === 'journalctl') {
      journals.push(args.join(' '));
      return { ...ok, stdout: opts.journal?.(args) ?? '' };
    }
    calls.push(`${file} ${args.join(' ')}`);
    await linkLikeSystemctl(fs, args);
    const text = (await fs.readFile(K2S_PATHS.captureUnit).catch(() => null))?.toString('utf8') ?? null;
    if (args[0] === 'daemon-reload') loaded = text;
    if (args.join(' ') === 'show -P MainPID k2s-dnsproxy-capture.service') return { code: 0, stdout: `${mainPid()}\n`, stderr: '' };
    if (args.join(' ') === 'show -P InvocationID k2s-dnsproxy-capture.service') return { code: 0, stdout: `${opts.invocationId?.() ?? ''}\n`, stderr: '' };
    if (args[0] === 'show') return { code: 0, stdout: `Id=k2s-dnsproxy-capture.service\nLoadState=${loaded ? 'loaded' : 'not-found'}\nNeedDaemonReload=${loaded === text ? 'no' : 'yes'}\n`, stderr: '' };
    if (args[0] === 'restart') return (await onRestart()) ?? ok;
    return ok;
  } };
  return { exec, calls, journals };
}
