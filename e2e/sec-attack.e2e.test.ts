/**
 * The security pass tried again as an attacker, on the test bed (as root, in the sandbox; another local
 * user is played by uid 65534 or 12345 through util-linux setpriv):
 *  - a kubeconfig owned by uid 65534 with `? [exec]` (YAML explicit key) runs nothing, neither
 *    for `k2s-dns zones` as root nor as uid 12345;
 *  - a /etc/k2s owned by another user and 0777 refuses start (NOT_ROOT_OWNED), the host's DNS
 *    is untouched;
 *  - /etc/k2s made 0777 while the proxy runs: after a kill -9 of the proxy the watchdog does not
 *    restart it from there;
 *  - the helper's internal verbs (`capture-watch --listen … --port …`: a root tcpdump on ports the
 *    caller names) through pkexec are refused, while the follower and companion a start through
 *    the helper spawns (no systemd here) still run: they get no PKEXEC_UID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { K2S_PATHS } from '../shared/k2s-paths';
import { WATCHDOG_STATE_FILE } from '../electron/core/host/supervised-service';
import { parseWatchdogState } from '../electron/core/host/supervisor-script';
import { startTestbed, type Testbed } from './bed/testbed';
import { k2sDns, type CliRun } from './cli';
import { runCmd } from './bed/run-cmd';
import { CAPTURE_READY_FILE } from '../electron/core/capture/capture-args';
import { FOLLOW_PID_FILE } from '../electron/core/host/follower';

const inSandbox = process.env.K2S_DNS_SANDBOX === '1';
if (!inSandbox) console.warn('skipped: sec-attack e2e runs only inside e2e/bed/sandbox.sh (as root)');
const BIN = fileURLToPath(new URL('../bin/k2s-dns.mjs', import.meta.url));
const HELPER = fileURLToPath(new URL('../bin/k2s-dns-helper.mjs', import.meta.url));
/** tcpdump's path, '' when it is not installed (start then runs without the exact query log). */
const tcpdump = inSandbox ? await runCmd('sh', ['-c', 'command -v tcpdump || true']).then((s) => s.trim()) : '';

/** `k2s-dns ARGS` as uid:gid `uid` with no groups (setpriv(1)). */
function k2sDnsAs(uid: number, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile('setpriv', ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', '--', process.execPath, BIN, ...args], { timeout: 60_000, env: { ...process.env, HOME: '/' } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr, events: [], result: undefined });
    });
  });
}

describe.skipIf(!inSandbox)('what an attacker tries on the test bed (dnsmasq engine)', () => {
  let tb: Testbed;
  let dir: string;
  let base: string[];
  beforeAll(async () => {
    tb = await startTestbed();
    base = ['--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test', '--json'];
    dir = await mkdtemp(join(tmpdir(), 'k2s-sec-'));
    await chmod(dir, 0o755);
  });
  afterAll(async () => {
    await chmod('/etc/k2s', 0o755).catch(() => undefined);
    await chown('/etc/k2s', 0, 0).catch(() => undefined);
    await k2sDns(['stop', '--on-drift', 'restore']);
    await tb?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('a uid-65534 kubeconfig with `? [exec]` runs nothing: refused as root and as uid 12345', async () => {
    const orig = YAML.parse(await readFile(tb.kubeconfigPath, 'utf8'));
    const marker = join(dir, 'pwned');
    const plugin = { apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/sh', args: ['-c', `id -u > ${marker}; echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x"}}'`] };
    const text = [
      'apiVersion: v1',
      'kind: Config',
      `clusters: ${JSON.stringify(orig.clusters)}`,
      `contexts: ${JSON.stringify(orig.contexts)}`,
      `current-context: ${JSON.stringify(orig['current-context'])}`,
      'users:',
      `- name: ${JSON.stringify(orig.contexts[0].context.user)}`,
      '  user:',
      '    ? [exec]',
      `    : ${JSON.stringify(plugin)}`,
      '',
    ].join('\n');
    const kc = join(dir, 'foreign.kubeconfig');
    await writeFile(kc, text, { mode: 0o644 });
    await chown(kc, 65534, 65534);
    const asRoot = await k2sDns(['zones', '--kubeconfig', kc]);
    expect(asRoot.code).not.toBe(0);
    expect(asRoot.stdout + asRoot.stderr).toContain(`The kubeconfig ${kc} is not root-owned and uses users[].user.exec`);
    const asUser = await k2sDnsAs(12345, ['zones', '--kubeconfig', kc]);
    expect(asUser.code).not.toBe(0);
    expect(asUser.stdout + asUser.stderr).toContain(`The kubeconfig ${kc} uses users[].user.exec but is owned by uid 65534`);
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  it('through pkexec the internal verbs are refused (exit 3, nothing captured); a start through the helper still runs its follower and capture companion, without the caller variables', async () => {
    for (const verb of [['capture-watch', '--listen', '127.0.0.1:53', '--port', '53'], ['follow-watch']]) {
      const r = await helperAs(65534, verb, {});
      expect(r.code).toBe(3);
      expect(r.stderr).toBe(`\`${verb[0]}\` is internal to k2s-dns: only its own start runs it, never through pkexec (PKEXEC_UID is set). Use the start and stop commands.\n`);
    }
    expect(existsSync(CAPTURE_READY_FILE)).toBe(false);
    expect(existsSync(FOLLOW_PID_FILE)).toBe(false);
    // pkexec run by root (PKEXEC_UID=0): the kubeconfig is then read as root, as without pkexec.
    const started = await helperAs(0, ['start', '--kubeconfig', tb.kubeconfigPath, '--engine', 'dnsmasq', '--verify-name', 'www.example.test'], {});
    try {
      const result = JSON.parse(started.stdout.trim().split('\n').at(-1) ?? '{}') as { ok?: boolean; warnings?: { code: string }[] };
      expect(result).toMatchObject({ ok: true });
      expect((result.warnings ?? []).map((w) => w.code)).toEqual([]);
      // Every follower, keeper and companion process: its argv and whether pkexec's variable reached it.
      const seen: { verb: string; callerVars: string[] }[] = [];
      for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
        const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
        const verb = argv.includes('capture-watch') ? 'capture-watch' : argv.at(-2) === 'follow-watch' || argv.at(-1) === 'follow-watch' ? 'follow-watch' : null;
        if (verb === null) continue;
        const env = (await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')).split('\0');
        seen.push({ verb, callerVars: env.filter((kv) => /^(PKEXEC_UID|SUDO_[A-Z]+)=/.test(kv)) });
      }
      expect(seen.filter((p) => p.verb === 'follow-watch').length).toBeGreaterThan(0);
      if (tcpdump) expect(seen.filter((p) => p.verb === 'capture-watch').length).toBeGreaterThan(0);
      expect(seen.filter((p) => p.callerVars.length > 0)).toEqual([]);
      if (tcpdump) expect(existsSync(CAPTURE_READY_FILE)).toBe(true);
    } finally {
      expect((await helperAs(0, ['stop'], {})).code).toBe(0);
    }
  }, 120_000);

  it('a /etc/k2s owned by uid 12345 (0777) refuses start with NOT_ROOT_OWNED; nothing changed', async () => {
    const before = await readFile('/etc/resolv.conf', 'utf8');
    await chown('/etc/k2s', 12345, 12345).catch(async () => {
      await (await import('node:fs/promises')).mkdir('/etc/k2s');
      await chown('/etc/k2s', 12345, 12345);
    });
    await chmod('/etc/k2s', 0o777);
    const r = await k2sDns(['start', ...base]);
    expect(r.result).toMatchObject({ ok: false, exitCode: 3, code: 'NOT_ROOT_OWNED' });
    expect(r.result?.message).toMatch(/^\/etc\/k2s is owned by uid 12345, not root \(ls -ld: drwxrwxrwx \d+ 12345 12345 /);
    expect(await readFile('/etc/resolv.conf', 'utf8')).toBe(before);
    await chown('/etc/k2s', 0, 0);
    await chmod('/etc/k2s', 0o755);
  }, 120_000);

  it('after start, /etc/k2s made 0777 and the proxy killed: the watchdog refuses to restart it', async () => {
    const r = await k2sDns(['start', ...base]);
    expect(r.result).toMatchObject({ ok: true });
    const pid = Number((await readFile(K2S_PATHS.pidFile, 'utf8')).trim());
    expect(pid).toBeGreaterThan(1);
    await chmod('/etc/k2s', 0o777);
    process.kill(pid, 'SIGKILL'); // the proxy this test started, by pid
    const deadline = Date.now() + 30_000;
    let state = parseWatchdogState('');
    while (Date.now() < deadline) {
      state = parseWatchdogState(await readFile(WATCHDOG_STATE_FILE, 'utf8').catch(() => ''));
      if (state.state === 'refused') break;
      await new Promise((resolve) => setTimeout(resolve, 100)); // polling a file the watchdog writes
    }
    expect(state.state).toBe('refused');
    expect(await readFile(K2S_PATHS.log, 'utf8')).toContain('k2s-dns: NOT_ROOT_OWNED: /etc/k2s is writable by group or others (drwxrwxrwx');
    expect(existsSync(K2S_PATHS.pidFile)).toBe(false);
    await chmod('/etc/k2s', 0o755);
  }, 120_000);
});

// The helper's kubeconfig search: root's existsSync on the caller's candidates told uid 65534
// whether a path behind a 0700 root directory exists ("does not exist or you cannot read it"
// for a present target, "No kubeconfig found (tried …)" for a missing one).
describe.skipIf(!inSandbox)('the helper\'s kubeconfig search reveals nothing about root-only paths', () => {
  it('uid 65534 with $KUBECONFIG a symlink into a 0700 root directory: the same answer whether or not the target exists', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'k2s-sec-locate-'));
    try {
      await chmod(dir, 0o755);
      const vault = join(dir, 'vault');
      await mkdir(vault, { mode: 0o700 });
      await writeFile(join(vault, 'present'), 'apiVersion: v1\n', { mode: 0o600 });
      const link = join(dir, 'kubeconfig');
      const answers: { code: number; message: unknown }[] = [];
      for (const target of ['present', 'absent']) {
        await rm(link, { force: true });
        await symlink(join(vault, target), link);
        const r = await helperAs(65534, ['start', '--engine', 'dnsmasq'], { KUBECONFIG: link, HOME: '/nonexistent-k2s-home' });
        answers.push({ code: r.code, message: (JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { message?: unknown }).message });
      }
      console.log(`uid 65534, target present: ${JSON.stringify(answers[0])}`);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0]!.code).toBe(3);
      expect(String(answers[0]!.message)).toMatch(/^No kubeconfig found \(tried /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The root helper as pkexec runs it for uid `uid` (PKEXEC_UID set, no SUDO_UID), with `env` added. */
function helperAs(uid: number, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { SUDO_UID: _s, SUDO_USER: _u, KUBECONFIG: _k, ...rest } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [HELPER, ...args], { timeout: 60_000, env: { ...rest, ...env, PKEXEC_UID: String(uid) } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}
