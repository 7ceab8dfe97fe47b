import { describe, expect, it } from 'vitest';
import type { Exec } from './exec';
import { KNOWN_CURRENT_MS, systemdReload, unitsNeedingReload } from './systemd-reload';

/** `systemctl show -p Id -p LoadState -p NeedDaemonReload` as systemd 257 prints it for two units. */
const TWO = 'Id=k2s-dnsproxy.service\nLoadState=loaded\nNeedDaemonReload=no\n\nId=k2s-dnsproxy-kubeswitch.service\nLoadState=loaded\nNeedDaemonReload=yes\n';

function recording(answers: (args: readonly string[]) => { code: number; stdout?: string } | Error): { exec: Exec; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    exec: {
      run: async (file, args) => {
        calls.push(`${file} ${args.join(' ')}`);
        const a = answers(args);
        if (a instanceof Error) throw a;
        return { code: a.code, stdout: a.stdout ?? '', stderr: '' };
      },
    },
  };
}

describe('unitsNeedingReload', () => {
  it('names the units loaded from an older file or not loaded', () => {
    expect(unitsNeedingReload(TWO)).toEqual(['k2s-dnsproxy-kubeswitch.service']);
    expect(unitsNeedingReload('Id=a.service\nLoadState=not-found\nNeedDaemonReload=no\n\nId=b.service\nLoadState=bad-setting\nNeedDaemonReload=no\n')).toEqual(['a.service', 'b.service']);
    expect(unitsNeedingReload('Id=a.service\nLoadState=loaded\nNeedDaemonReload=no\n')).toEqual([]);
  });
});

describe('systemdReload', () => {
  it('current with linksFirst: asks at once, and a reload it needs begins only once the links are on disk', async () => {
    const r = recording((args) => ({ code: 0, stdout: args[0] === 'show' ? TWO : '' }));
    const reload = systemdReload(r.exec);
    let linked!: () => void;
    const links = new Promise<void>((resolve) => (linked = resolve)).then(() => {
      r.calls.push('links on disk');
      reload.linksChanged();
    });
    const asked = reload.current(['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'], { linksFirst: links });
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.calls).toEqual(['systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy.service k2s-dnsproxy-kubeswitch.service']);
    linked();
    expect(await asked).toBe(true);
    expect(r.calls.slice(1)).toEqual(['links on disk', 'systemctl daemon-reload']);
    // That reload read the links: settle asks for nothing more.
    await reload.settle();
    expect(r.calls).toHaveLength(3);
  });

  it('a link changed while a reload runs is left for settle', async () => {
    let finish!: () => void;
    const calls: string[] = [];
    const exec: Exec = {
      run: async (file, args) => {
        calls.push(`${file} ${args.join(' ')}`);
        if (args[0] === 'daemon-reload' && calls.filter((c) => c.endsWith('daemon-reload')).length === 1) await new Promise<void>((resolve) => (finish = resolve));
        return { code: 0, stdout: '', stderr: '' };
      },
    };
    const reload = systemdReload(exec);
    reload.unitWritten('a.service');
    const running = reload.current(['a.service']);
    await new Promise((resolve) => setImmediate(resolve));
    reload.linksChanged();
    finish();
    await running;
    await reload.settle();
    expect(calls.at(-1)).toMatch(/^systemd-run .* systemctl daemon-reload$/);
  });

  it('current: reloads only when a unit needs it, or when its state cannot be read', async () => {
    const fresh = recording((args) => ({ code: 0, stdout: args[0] === 'show' ? 'Id=a.service\nLoadState=loaded\nNeedDaemonReload=no\n' : '' }));
    expect(await systemdReload(fresh.exec).current(['a.service'])).toBe(false);
    expect(fresh.calls).toEqual(['systemctl show -p Id -p LoadState -p NeedDaemonReload -- a.service']);
    const stale = recording((args) => ({ code: 0, stdout: args[0] === 'show' ? TWO : '' }));
    expect(await systemdReload(stale.exec).current(['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'])).toBe(true);
    expect(stale.calls.at(-1)).toBe('systemctl daemon-reload');
    // One unit's block missing (an output this code does not know): reload, never guess.
    const short = recording((args) => ({ code: 0, stdout: args[0] === 'show' ? 'Id=a.service\nLoadState=loaded\nNeedDaemonReload=no\n' : '' }));
    expect(await systemdReload(short.exec).current(['a.service', 'b.service'])).toBe(true);
    const failing = recording((args) => ({ code: args[0] === 'show' ? 1 : 0 }));
    expect(await systemdReload(failing.exec).current(['a.service'])).toBe(true);
    const refused = recording((args) => ({ code: args[0] === 'show' ? 1 : 1 }));
    await expect(systemdReload(refused.exec).current(['a.service'])).rejects.toThrow('systemctl daemon-reload failed (exit 1)');
  });

  it('current uses what it heard within KNOWN_CURRENT_MS and not written since instead of asking; later, or rewritten, it asks or reloads', async () => {
    let t = 1000;
    const r = recording((args) => ({ code: 0, stdout: args[0] === 'show' ? args.slice(args.indexOf('--') + 1).map((u) => `Id=${u}\nLoadState=loaded\nNeedDaemonReload=no\n`).join('\n') : '' }));
    const reload = systemdReload(r.exec, () => t);
    expect(await reload.current(['k2s-dnsproxy.service', 'k2s-dnsproxy-follow.service'])).toBe(false);
    t += 400; // the follower's start after verify
    expect(await reload.current(['k2s-dnsproxy-follow.service'])).toBe(false);
    expect(r.calls).toEqual(['systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy.service k2s-dnsproxy-follow.service']);
    // A unit not heard of before is asked about, alone.
    expect(await reload.current(['k2s-dnsproxy-follow.service', 'k2s-dnsproxy-capture.service'])).toBe(false);
    expect(r.calls.at(-1)).toBe('systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy-capture.service');
    // Past KNOWN_CURRENT_MS (a long-running process): asked again.
    t += KNOWN_CURRENT_MS;
    r.calls.length = 0;
    expect(await reload.current(['k2s-dnsproxy.service'])).toBe(false);
    expect(r.calls).toEqual(['systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy.service']);
    // Written by this process since: reloaded, whatever was heard.
    reload.unitWritten('k2s-dnsproxy.service');
    r.calls.length = 0;
    expect(await reload.current(['k2s-dnsproxy.service'])).toBe(true);
    expect(r.calls).toEqual(['systemctl daemon-reload']);
    // …and then known current (the reload read it).
    expect(await reload.current(['k2s-dnsproxy.service'])).toBe(false);
    expect(r.calls).toEqual(['systemctl daemon-reload']);
  });

  it("ask: one show for every unit with the asker's own properties; current uses its answer (a stale unit reloaded for at once, no second show), waits for one in flight, and keeps nothing of a failed one", async () => {
    const units = ['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service', 'k2s-dnsproxy-capture.service'];
    const STATUS = 'Id=k2s-dnsproxy.service\nLoadState=loaded\nNeedDaemonReload=no\nActiveState=inactive\n\nId=k2s-dnsproxy-kubeswitch.service\nLoadState=loaded\nNeedDaemonReload=yes\nActiveState=inactive\n\nId=k2s-dnsproxy-capture.service\nLoadState=loaded\nNeedDaemonReload=no\nActiveState=inactive\n';
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const calls: string[] = [];
    const exec: Exec = {
      run: async (file, args) => {
        calls.push(`${file} ${args.join(' ')}`);
        if (args[0] === 'show') await answered;
        return { code: 0, stdout: args[0] === 'show' ? STATUS : '', stderr: '' };
      },
    };
    const reload = systemdReload(exec);
    const status = reload.ask(units, ['ActiveState']);
    // Asked while the question is in flight: its answer, not a show of its own.
    const capture = reload.current(['k2s-dnsproxy-capture.service']);
    await new Promise((resolve) => setImmediate(resolve));
    answer();
    expect(await status).toBe(STATUS);
    expect(await capture).toBe(false);
    expect(calls).toEqual(['systemctl show -p Id -p LoadState -p NeedDaemonReload -p ActiveState -- k2s-dnsproxy.service k2s-dnsproxy-kubeswitch.service k2s-dnsproxy-capture.service']);
    // The kubeswitch unit was heard stale: reloaded for without asking again; then every unit is current.
    expect(await reload.current(['k2s-dnsproxy.service', 'k2s-dnsproxy-kubeswitch.service'])).toBe(true);
    expect(calls.slice(1)).toEqual(['systemctl daemon-reload']);
    expect(await reload.current(units)).toBe(false);
    expect(calls).toHaveLength(2);
    // A failed question keeps nothing: current asks itself, and a failed one of its own reads as "reload".
    const failing = recording((args) => (args[0] === 'show' ? new Error('spawn EAGAIN') : { code: 0 }));
    const f = systemdReload(failing.exec);
    await expect(f.ask(['k2s-dnsproxy.service'])).rejects.toThrow('spawn EAGAIN');
    expect(await f.current(['k2s-dnsproxy.service'])).toBe(true);
    expect(failing.calls).toEqual(['systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy.service', 'systemctl show -p Id -p LoadState -p NeedDaemonReload -- k2s-dnsproxy.service', 'systemctl daemon-reload']);
  });

  it('an answer asked before a reload that lands after it does not undo what the reload read; a unit written while a reload runs is reloaded for again', async () => {
    let land!: () => void;
    const landed = new Promise<void>((resolve) => (land = resolve));
    let t = 0;
    const calls: string[] = [];
    const exec: Exec = {
      run: async (file, args) => {
        calls.push(`${file} ${args[0]}`);
        if (args[0] === 'show') {
          await landed;
          return { code: 0, stdout: 'Id=a.service\nLoadState=loaded\nNeedDaemonReload=yes\n', stderr: '' };
        }
        return { code: 0, stdout: '', stderr: '' };
      },
    };
    const reload = systemdReload(exec, () => t++);
    const asked = reload.ask(['a.service']);
    reload.unitWritten('a.service');
    expect(await reload.current(['a.service'])).toBe(true);
    land();
    await asked;
    expect(await reload.current(['a.service'])).toBe(false);
    expect(calls).toEqual(['systemctl show', 'systemctl daemon-reload']);
  });

  it('reloadNow: reloads and waits, after which settle asks for nothing (uninstall removed unit files; no second reload after its result)', async () => {
    const r = recording(() => ({ code: 0 }));
    const reload = systemdReload(r.exec);
    reload.linksChanged();
    await reload.reloadNow();
    await reload.settle();
    expect(r.calls).toEqual(['systemctl daemon-reload']);
    const refused = recording(() => ({ code: 1 }));
    await expect(systemdReload(refused.exec).reloadNow()).rejects.toThrow('systemctl daemon-reload failed (exit 1)');
  });

  it('settle: a link changed while its systemd-run runs (a rollback after the early ask) is asked for again by the next settle', async () => {
    let queued!: () => void;
    const calls: string[] = [];
    const exec: Exec = {
      run: async (file, args) => {
        calls.push(file);
        if (file === 'systemd-run' && calls.length === 1) await new Promise<void>((resolve) => (queued = resolve));
        return { code: 0, stdout: '', stderr: '' };
      },
    };
    const reload = systemdReload(exec);
    reload.linksChanged();
    const first = reload.settle();
    await new Promise((resolve) => setImmediate(resolve));
    reload.linksChanged();
    queued();
    await first;
    await reload.settle();
    await reload.settle();
    expect(calls).toEqual(['systemd-run', 'systemd-run']);
  });

  it('settle: one called while another asks waits for it and asks nothing more (stop begins one once the proxy is stopped, and settles again at its end)', async () => {
    let queued!: () => void;
    const calls: string[] = [];
    const exec: Exec = {
      run: async (file) => {
        calls.push(file);
        if (calls.length === 1) await new Promise<void>((resolve) => (queued = resolve));
        return { code: 0, stdout: '', stderr: '' };
      },
    };
    const reload = systemdReload(exec);
    reload.linksChanged();
    const early = reload.settle();
    await new Promise((resolve) => setImmediate(resolve));
    let lateDone = false;
    const late = reload.settle().then(() => void (lateDone = true));
    await new Promise((resolve) => setImmediate(resolve));
    // The second waits for the first's systemd-run, and never runs its own.
    expect(lateDone).toBe(false);
    expect(calls).toEqual(['systemd-run']);
    queued();
    await Promise.all([early, late]);
    expect(calls).toEqual(['systemd-run']);
    // A link changed after that: the next settle asks once more.
    reload.linksChanged();
    await Promise.all([reload.settle(), reload.settle()]);
    expect(calls).toEqual(['systemd-run', 'systemd-run']);
  });

  it('settle: has PID 1 run one daemon-reload as a unit of its own, only after links changed; else launches it; else runs it', async () => {
    const RUN = 'systemd-run --no-block --quiet --collect --description=K2s DNS: the manager reads the changed unit links -- systemctl daemon-reload';
    const ok = recording(() => ({ code: 0 }));
    const launched: string[] = [];
    const inService = async () => true;
    const reload = systemdReload({ ...ok.exec, launch: (file, args) => (launched.push(`${file} ${args.join(' ')}`), true) }, undefined, inService);
    await reload.settle();
    expect(ok.calls).toEqual([]);
    reload.linksChanged();
    await reload.settle();
    await reload.settle();
    expect(ok.calls).toEqual([RUN]);
    expect(launched).toEqual([]);
    // No systemd-run (it failed): launched as a child without waiting.
    const noRun = recording((args) => ({ code: args.includes('--no-block') ? 1 : 0 }));
    const l: string[] = [];
    const n = systemdReload({ ...noRun.exec, launch: (file, args) => (l.push(`${file} ${args.join(' ')}`), true) }, undefined, inService);
    n.linksChanged();
    await n.settle();
    expect(noRun.calls).toEqual([RUN]);
    expect(l).toEqual(['systemctl daemon-reload']);
    // Neither a unit nor a launch (an Exec without it, or one that could not spawn): the reload is run and waited for; never throws.
    for (const launch of [undefined, () => false]) {
      const fallback = recording((args) => (args.includes('--no-block') ? new Error('spawn systemd-run ENOENT') : { code: 0 }));
      const r = systemdReload({ ...fallback.exec, ...(launch ? { launch } : {}) }, undefined, inService);
      r.linksChanged();
      await r.settle();
      expect(fallback.calls).toEqual([RUN, 'systemctl daemon-reload']);
    }
    const failing = recording(() => ({ code: 1 }));
    const f = systemdReload(failing.exec);
    f.linksChanged();
    await expect(f.settle()).resolves.toBeUndefined();
    // A reload done on a start's path covers the links changed before it.
    const covered = recording((args) => ({ code: 0, stdout: args[0] === 'show' ? 'Id=a.service\nLoadState=not-found\nNeedDaemonReload=no\n' : '' }));
    const c = systemdReload(covered.exec);
    c.linksChanged();
    await c.current(['a.service']);
    covered.calls.length = 0;
    await c.settle();
    expect(covered.calls).toEqual([]);
  });
  it('settle outside a service: launches systemctl daemon-reload and waits for no systemd-run; inside one, or when the launch fails, the unit as before', async () => {
    const RUN = 'systemd-run --no-block --quiet --collect --description=K2s DNS: the manager reads the changed unit links -- systemctl daemon-reload';
    // A systemd-run that never answers: a settle that waited for it would never resolve.
    const calls: string[] = [];
    const launched: string[] = [];
    const hung: Exec = {
      run: (file, args) => (calls.push(`${file} ${args.join(' ')}`), new Promise(() => undefined)),
      launch: (file, args) => (launched.push(`${file} ${args.join(' ')}`), true),
    };
    const outside = systemdReload(hung, undefined, async () => false);
    outside.linksChanged();
    await outside.settle();
    expect(launched).toEqual(['systemctl daemon-reload']);
    expect(calls).toEqual([]);
    // Asked: the next settle asks nothing more.
    await outside.settle();
    expect(launched).toHaveLength(1);
    // Inside a service: the unit, waited for (its cgroup is killed as the command exits).
    const ok = recording(() => ({ code: 0 }));
    const l: string[] = [];
    const inside = systemdReload({ ...ok.exec, launch: (file, args) => (l.push(file), true) }, undefined, async () => true);
    inside.linksChanged();
    await inside.settle();
    expect(ok.calls).toEqual([RUN]);
    expect(l).toEqual([]);
    // Outside, but the launch could not spawn: the unit as before.
    const failedLaunch = recording(() => ({ code: 0 }));
    const f = systemdReload({ ...failedLaunch.exec, launch: () => false }, undefined, async () => false);
    f.linksChanged();
    await f.settle();
    expect(failedLaunch.calls).toEqual([RUN]);
  });
});
