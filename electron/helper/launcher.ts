import { spawn } from 'node:child_process';
import type { LifecycleEvent, ResultEvent } from '../../shared/lifecycle-events';
import { EXIT } from '../../shared/lifecycle-events';
import { helperArgs, type HelperRequest } from './request';

/**
 * How the main process gets root for the helper. `not-installed`: no root-owned helper, so no
 * elevation at all (code in a user-writable checkout must never run as root).
 */
export type Elevation = 'direct' | 'pkexec' | 'not-installed';

/** Where the helper lives and whether the polkit action is installed. */
export interface LauncherOptions {
  /** Effective uid of the main process. */
  uid: number;
  /** Node binary that runs the helper script when already root (process.execPath). */
  nodePath: string;
  /** Absolute path of the checkout's bin/k2s-dns-helper.mjs: run only when already root. */
  helperScript: string;
  /** Root-owned launcher that the polkit action's exec.path pins (resources/io.k2s.dns.policy). */
  installedHelper: string;
  /** The polkit policy and the installed helper both exist, root-owned. */
  policyInstalled: boolean;
}

/** The command a user runs once to install the root-owned helper from a checkout. */
export const INSTALL_HELPER_COMMAND = 'sudo bash scripts/install-helper.sh';

/**
 * Root: run the checkout's helper directly (root already owns the process); polkit action and
 * root-owned helper installed: pkexec on that file (argv, no shell); else not-installed.
 */
export function chooseElevation(o: LauncherOptions): Elevation {
  if (o.uid === 0) return 'direct';
  return o.policyInstalled ? 'pkexec' : 'not-installed';
}

/**
 * argv for direct and pkexec runs. pkexec's exec.path match needs the installed helper itself;
 * pkexec resets the environment, so nothing the user sets reaches the root process.
 */
export function helperArgv(o: LauncherOptions, elevation: 'direct' | 'pkexec', req: HelperRequest): string[] {
  return elevation === 'pkexec'
    ? ['pkexec', o.installedHelper, ...helperArgs(req)]
    : [o.nodePath, '--enable-source-maps', o.helperScript, ...helperArgs(req)];
}

/** The refusal when no root-owned helper is installed: says how to install it; nothing changed. */
export function notInstalledResult(o: LauncherOptions, req: HelperRequest): ResultEvent {
  return {
    type: 'result',
    op: req.verb,
    ok: false,
    exitCode: EXIT.refused,
    code: 'HELPER_NOT_INSTALLED',
    message: `${req.verb[0]!.toUpperCase()}${req.verb.slice(1)} needs root through the K2s DNS helper, which is not installed (${o.installedHelper} and its polkit policy). A checkout's own files are user-writable, so they are never run as root. Install the helper once from the repository after \`npm run build\`: ${INSTALL_HELPER_COMMAND} (or install the k2s-dns package), or run the app as root. Nothing changed.`,
    at: Date.now(),
  };
}

/** Parses the helper's stdout (JSON lines) into events, ignoring anything else. */
export function parseEventLines(text: string): LifecycleEvent[] {
  const events: LifecycleEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const e = JSON.parse(line) as LifecycleEvent;
      if (e && (e.type === 'step' || e.type === 'result')) events.push(e);
    } catch {
      // not an event line
    }
  }
  return events;
}

/** The result when the helper ended without one (cancelled authorization, crash). pkexec exits 126 when not authorized (pkexec(1)). */
function missingResult(req: HelperRequest, code: number | null, stderr: string): ResultEvent {
  const cancelled = code === 126 || /dismissed|did not grant|not authorized|cancel/i.test(stderr);
  return {
    type: 'result',
    op: req.verb,
    ok: false,
    exitCode: cancelled ? EXIT.refused : EXIT.failedRolledBack,
    code: cancelled ? 'AUTH_CANCELLED' : 'HELPER_FAILED',
    message: cancelled
      ? 'Authorization was cancelled or refused; nothing changed. Try again and enter an administrator password.'
      : `The privileged helper ended without a result (exit ${code}): ${stderr.trim().slice(0, 400) || 'no output'}; run k2s-dns status to see the host state.`,
    at: Date.now(),
  };
}

/**
 * Runs one lifecycle verb in the privileged helper and streams its events to `onEvent`.
 * Resolves to the result event (HELPER_NOT_INSTALLED, exit 3, when there is nothing safe to elevate).
 */
export async function runHelper(o: LauncherOptions, req: HelperRequest, onEvent: (e: LifecycleEvent) => void): Promise<ResultEvent> {
  const elevation = chooseElevation(o);
  if (elevation === 'not-installed') {
    const result = notInstalledResult(o, req);
    onEvent(result);
    return result;
  }
  const [file, ...args] = helperArgv(o, elevation, req);
  return new Promise((resolve) => {
    const child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    let result: ResultEvent | null = null;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const e of parseEventLines(lines.join('\n'))) {
        if (e.type === 'result') result = e;
        onEvent(e);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (err) => resolve(missingResult(req, null, err.message)));
    child.on('close', (code) => {
      for (const e of parseEventLines(buffer)) {
        if (e.type === 'result') result = e;
        onEvent(e);
      }
      resolve(result ?? missingResult(req, code, stderr));
    });
  });
}
