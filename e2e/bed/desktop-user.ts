/**
 * A desktop user on a booted Debian host (debian-host.ts) running the INSTALLED app: a login
 * with its own ~/.kube/config, and `k2s-dns ui` (/usr/bin/k2s-dns from the package) as that
 * user in a transient systemd service, driven over its web API from the test (the host shares
 * the sandbox's network namespace, so its 127.0.0.1 is ours). Start/Stop/Uninstall then go the
 * product's privileged path: the app → /usr/bin/pkexec → /usr/lib/k2s-dns/k2s-dns-helper.
 */
import type { Envelope } from '../../shared/contract';
import type { DebianHost } from './debian-host';

/** A user of the host. */
export interface HostUser {
  name: string;
  uid: number;
  home: string;
}

/** Adds `user` (useradd -m) and, when given, its ~/.kube/config (owner the user, 0600). */
export async function addUser(h: DebianHost, user: HostUser, kubeconfig?: string): Promise<void> {
  const add = await h.run(['useradd', '--create-home', '--uid', String(user.uid), '--user-group', '--shell', '/bin/sh', user.name]);
  if (add.code !== 0) throw new Error(`useradd ${user.name}: ${add.stderr}`);
  if (kubeconfig === undefined) return;
  const kc = `${user.home}/.kube/config`;
  const w = await h.run(['sh', '-c', `install -d -o ${user.name} -g ${user.name} -m 0700 ${user.home}/.kube && cat > ${kc} && chown ${user.name}:${user.name} ${kc} && chmod 0600 ${kc}`], { input: kubeconfig });
  if (w.code !== 0) throw new Error(`writing ${kc}: ${w.stderr}`);
}

/**
 * A polkit rule (polkit(8) JavaScript) for io.k2s.dns.helper: YES for `allow` (the bed's stand-in
 * for an administrator's password: no desktop agent runs in the bed), AUTH_ADMIN for each of
 * `ask` (a password is needed: an agent such as pkttyagent must ask for it), NO for each of `deny`
 * (a rule says no), nothing for anyone else (the action's defaults).
 */
export function helperRule(allow: string, ask: string | string[], deny: string[] = []): string {
  const list = (names: string | string[]) => JSON.stringify([names].flat());
  return `// k2s-dns e2e (e2e/bed/desktop-user.ts)\npolkit.addRule(function (action, subject) {\n  if (action.id !== "io.k2s.dns.helper") return polkit.Result.NOT_HANDLED;\n  if (subject.user === "${allow}") return polkit.Result.YES;\n  if (${list(ask)}.indexOf(subject.user) >= 0) return polkit.Result.AUTH_ADMIN;\n  if (${list(deny)}.indexOf(subject.user) >= 0) return polkit.Result.NO;\n  return polkit.Result.NOT_HANDLED;\n});\n`;
}

/** The installed app as a user, over its web API. */
export interface HostApp {
  /** POST /api/<call> with the per-launch token; resolves to the envelope. */
  call<T = unknown>(name: string, input?: unknown): Promise<Envelope<T>>;
  /** GET / — the page the browser loads (the packaged renderer's index.html). */
  page(): Promise<string>;
  /** The address the app printed, with its per-launch token (`http://127.0.0.1:PORT/#token=…`): what a browser opens. */
  readonly url: string;
  /** PID (in the host's PID namespace) of the app's process: the subject of its pkexec calls (pkexec(1) checks its parent). */
  mainPid(): Promise<number>;
  /** `systemctl stop` of its unit (ends only that service). */
  stop(): Promise<void>;
}

let launches = 0;

/**
 * Runs `/usr/bin/k2s-dns ui --port PORT --verify-name www.example.test` as `user` in a
 * transient unit of its own (`k2s-dns-app-<user>-<n>`: a new journal, so an earlier launch's
 * URL is never read) and waits (bounded) for its printed URL and token.
 */
export async function startAppAs(h: DebianHost, user: HostUser, port: number): Promise<HostApp> {
  const unit = `k2s-dns-app-${user.name}-${++launches}`;
  const r = await h.run(['systemd-run', `--unit=${unit}`, `--uid=${user.name}`, `--gid=${user.name}`, `--setenv=HOME=${user.home}`, `--setenv=USER=${user.name}`, `--setenv=LOGNAME=${user.name}`, `--working-directory=${user.home}`, '--', '/usr/bin/k2s-dns', 'ui', '--port', String(port), '--verify-name', 'www.example.test']);
  if (r.code !== 0) throw new Error(`systemd-run ${unit}: ${r.stderr}`);
  const deadline = Date.now() + 60_000;
  let token: string | null = null;
  let journal = '';
  while (!token) {
    journal = (await h.run(['journalctl', '--unit', unit, '--output', 'cat', '--no-pager'])).stdout;
    token = new RegExp(`K2s DNS is open at http://127\\.0\\.0\\.1:${port}/#token=([0-9a-f]{64})`).exec(journal)?.[1] ?? null;
    if (token) break;
    if (Date.now() > deadline) throw new Error(`${unit} printed no URL within 60 s:\n${journal.slice(-2000)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
  const base = `http://127.0.0.1:${port}`;
  return {
    async call<T>(name: string, input: unknown = {}) {
      const res = await fetch(`${base}/api/${name}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Origin: base }, body: JSON.stringify(input), signal: AbortSignal.timeout(120_000) });
      return (await res.json()) as Envelope<T>;
    },
    url: `${base}/#token=${token}`,
    async mainPid() {
      return Number((await h.run(['systemctl', 'show', '-P', 'MainPID', unit])).stdout.trim());
    },
    async page() {
      return (await fetch(`${base}/`, { signal: AbortSignal.timeout(30_000) })).text();
    },
    async stop() {
      await h.run(['systemctl', 'stop', unit]);
    },
  };
}

/**
 * Every path on the host's root file system (find -xdev: not /proc, /sys, /dev, /run, /tmp, nor
 * the read-only checkout), minus what the host itself churns whatever is installed: apt's and
 * dpkg's logs and backups, caches, the journal.
 */
export async function hostFileList(h: DebianHost): Promise<string[]> {
  const r = await h.run(['find', '/', '-xdev', '-path', '/tmp', '-prune', '-o', '-print'], { timeoutMs: 120_000 });
  // Also a desktop user's ~/.cache (the CLI's V8 code cache, ~/.cache/k2s-dns: the user's own
  // files, which no package removes).
  const churn = /^\/(home\/[^/]+\/\.cache(\/|$)|var\/log\/(apt|journal)(\/|$)|var\/log\/(dpkg|alternatives)\.log$|var\/cache\/|var\/lib\/apt\/|var\/lib\/dpkg\/[^/]*-old$|var\/lib\/dpkg\/(lock|triggers\/Lock)|var\/lib\/systemd\/|var\/tmp\/)/;
  return r.stdout.split('\n').filter((p) => p && !churn.test(p)).sort();
}
