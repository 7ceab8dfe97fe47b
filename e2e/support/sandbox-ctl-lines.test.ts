/**
 * A new user's finding: with two sandboxes running, a `sandbox:ctl` line one of them printed
 * failed as pasted ("2 sandboxes run; name one with --dir: …"). Now each line it prints (its
 * outage controls, e2e/sandbox-control.ts sandboxControlLines, and the controls its fix texts
 * name, shared/fix.ts sandboxCtlCommand) carries `--dir DIR`. Two fake sandboxes (a control
 * socket each, under a private $TMPDIR that e2e/sandbox-ctl.ts searches) and the lines pasted.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxControlLines, startControlServer, type ControlledBed, type ControlServer } from '../sandbox-control';
import { clusterStartFix, networkCheckWays, setCliName } from '../../shared/fix';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A test bed stand-in whose API URL tells the sandboxes apart. */
function fakeBed(name: string): ControlledBed {
  let mode = 'ok';
  return {
    stopCoreDns: async () => {},
    startCoreDns: async () => {},
    coreDnsPid: () => 1,
    stopUpstream: async () => {},
    startUpstream: async () => {},
    upstreamPid: () => 2,
    addresses: { kubeDns: '172.21.0.10', upstream: '192.0.2.53' } as ControlledBed['addresses'],
    kubeDnsKind: 'coredns',
    api: { setMode: async (m: string) => void (mode = m), mode: () => mode, url: `https://${name}.test:6443` } as unknown as ControlledBed['api'],
  };
}

/** Runs `npm run sandbox:ctl -- ARGS` as npm would (node --import tsx e2e/sandbox-ctl.ts ARGS) with $TMPDIR `tmp`. */
function ctl(args: string[], tmp: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'e2e/sandbox-ctl.ts'), ...args], { cwd: REPO, env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The arguments after `npm run sandbox:ctl --` of a printed line (a comment after `#` dropped, backticks too). */
function pasted(line: string): string[] {
  const at = line.indexOf('npm run sandbox:ctl -- ');
  return line.slice(at + 'npm run sandbox:ctl -- '.length).split('#')[0]!.split('`')[0]!.trim().split(/\s+/);
}

describe('two sandboxes run: the sandbox:ctl lines one prints act on it as pasted', () => {
  let tmp: string;
  const dirs: string[] = [];
  const servers: ControlServer[] = [];
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'k2s-ctl-lines-'));
    for (const name of ['a', 'b']) {
      const dir = join(tmp, `k2sdns-app-${name}`);
      await mkdir(dir, { mode: 0o700 });
      dirs.push(dir);
      servers.push(await startControlServer(fakeBed(name), join(dir, 'control.sock')));
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    setCliName('npx k2s-dns');
    await rm(tmp, { recursive: true, force: true });
  });

  it("the outage controls it prints (api down, …) name its --dir: pasted, they reach it, not the other one's and not the refusal", async () => {
    const lines = sandboxControlLines(dirs[1]!);
    expect(lines.length).toBe(8);
    const down = lines.find((l) => pasted(l).join(' ').endsWith('api down'))!;
    expect(pasted(down)).toEqual(['--dir', dirs[1], 'api', 'down']);
    const r = await ctl(pasted(down), tmp);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe('ok: the Kubernetes API https://b.test:6443 refuses connections; the Cluster card says Unreachable within 5 s\n');
    // Without --dir the same command is refused while two run (what the old lines did).
    expect((await ctl(['api', 'down'], tmp)).stderr).toMatch(/^2 sandboxes run; name one with --dir:/);
  });

  it('the controls its fix texts name (api up, upstream up) name its --dir too', async () => {
    setCliName(`${dirs[0]}/k2s-dns`, false, true, '192.0.2.53');
    const api = clusterStartFix();
    expect(api).toContain(`\`npm run sandbox:ctl -- --dir ${dirs[0]} api up\``);
    const r = await ctl(pasted(api), tmp);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe('ok: the Kubernetes API https://a.test:6443 answers again; the Cluster card says Reachable by itself\n');
    const up = networkCheckWays(['192.0.2.53:53']);
    expect(pasted(up)).toEqual(['--dir', dirs[0], 'upstream', 'up']);
    expect((await ctl(pasted(up), tmp)).stdout).toMatch(/^ok: the upstream .* is already up \(PID 2\)\n$/);
  });
});
