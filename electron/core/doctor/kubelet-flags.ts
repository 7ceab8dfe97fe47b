/**
 * kubelet's effective command-line flags as systemd builds them (pure parsing; no I/O).
 * kubeadm's drop-in `10-kubeadm.conf` (kubeadm docs, "Configuring each kubelet in your cluster
 * using kubeadm") runs
 *   ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
 * with `Environment="KUBELET_…_ARGS=…"` lines in the drop-ins and
 * `EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env` (KUBELET_KUBEADM_ARGS) and
 * `EnvironmentFile=-/etc/default/kubelet` or `/etc/sysconfig/kubelet` (KUBELET_EXTRA_ARGS).
 * A command-line flag overrides the same field of the `--config` file (kubelet-config-file docs:
 * "command line flags which target the same value as a config file will override that value"),
 * and for a repeated flag the last one wins (pflag).
 */

/** Files systemd reads for kubelet's environment, in the order it applies them. */
export const KUBELET_ENV_FILES = ['/var/lib/kubelet/kubeadm-flags.env', '/etc/default/kubelet', '/etc/sysconfig/kubelet'] as const;

/** Directories of kubelet.service drop-ins (systemd.unit(5)); /etc overrides /usr/lib and /lib by name. */
export const KUBELET_DROPIN_DIRS = ['/lib/systemd/system/kubelet.service.d', '/usr/lib/systemd/system/kubelet.service.d', '/etc/systemd/system/kubelet.service.d'] as const;

/** The variables kubeadm's ExecStart expands, in command-line order; other KUBELET_*ARGS follow. */
const ARG_ORDER = ['KUBELET_KUBECONFIG_ARGS', 'KUBELET_CONFIG_ARGS', 'KUBELET_KUBEADM_ARGS', 'KUBELET_EXTRA_ARGS'];

/** Strips one level of double or single quotes around a whole value. */
function unquote(v: string): string {
  const t = v.trim();
  return t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0] ? t.slice(1, -1) : t;
}

/** `KEY=VALUE` lines of an EnvironmentFile (systemd.exec(5)); comments and blanks skipped. */
export function parseEnvFile(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) out.set(m[1] as string, unquote(m[2] as string));
  }
  return out;
}

/** `Environment=` assignments of a unit drop-in: `Environment="K=V"` or `Environment=K=V K2=V2`. */
export function parseDropInEnvironment(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const m = /^\s*Environment\s*=\s*(.*)$/.exec(raw);
    if (!m) continue;
    // Each assignment is a word, optionally quoted as a whole ("K=V with spaces").
    for (const word of (m[1] as string).match(/"[^"]*"|'[^']*'|\S+/g) ?? []) {
      const kv = unquote(word);
      const eq = kv.indexOf('=');
      if (eq > 0) out.set(kv.slice(0, eq), kv.slice(eq + 1));
    }
  }
  return out;
}

/** The kubelet argv that the KUBELET_*ARGS variables expand to (whitespace-split, as systemd does for $VAR). */
export function kubeletArgs(env: Map<string, string>): string[] {
  const names = [...ARG_ORDER, ...[...env.keys()].filter((k) => /^KUBELET_\w*ARGS$/.test(k) && !ARG_ORDER.includes(k)).sort()];
  return names.flatMap((n) => (env.get(n) ?? '').split(/\s+/).filter((w) => w !== '').map(unquote));
}

/** The last value of `--name=V` or `--name V` in `args`, or undefined. */
export function lastFlag(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a.startsWith(`--${name}=`)) value = a.slice(name.length + 3);
    else if (a === `--${name}` && i + 1 < args.length) value = args[++i];
  }
  return value;
}
