import { spawn } from 'node:child_process';
import type { LifecycleEvent, ResultEvent } from '../../shared/lifecycle-events';
import { EXIT } from '../../shared/lifecycle-events';
import { helperArgs, type HelperRequest } from './request';
import { INSTALL_HELPER_COMMAND, PKEXEC_PATH, type InstallGap } from './installed';
import { denialResult } from './pkexec-denial';

export { INSTALL_HELPER_COMMAND };

/**
 * How the main process gets root for the helper. `not-installed`: a piece of the privileged
 * path is missing, so no elevation at all (code in a user-writable checkout must never run as
 * root).
 */
export type Elevation = 'direct' | 'pkexec' | 'not-installed';

/** Where the helper lives, and how to look for the installed privileged path. */
export interface LauncherOptions {
  /** Effective uid of the main process. */
  uid: number;
  /** Node binary that runs the helper script when already root (process.execPath). */
  nodePath: string;
  /** Absolute path of the helper script run only when already root (the checkout's bin/k2s-dns-helper.mjs, or the package's bundle). */
  helperScript: string;
  /** Root-owned launcher that the polkit action's exec.path pins (resources/io.k2s.dns.policy). */
  installedHelper: string;
  /** pkexec's absolute path (PKEXEC_PATH). */
  pkexec?: string;
  /**
   * Looks, at each call, for the installed helper, pkexec and the polkit action
   * (installed.ts findInstallGap); null when all are in place, else the first missing piece.
   */
  installGap: () => InstallGap | null;
}

/**
 * Root: run the helper directly (root already owns the process); the privileged path in place:
 * pkexec on the installed helper (argv, no shell); else not-installed. Looks now, every call.
 */
export function chooseElevation(o: LauncherOptions): Elevation {
  if (o.uid === 0) return 'direct';
  return o.installGap() === null ? 'pkexec' : 'not-installed';
}

/**
 * argv for direct and pkexec runs. pkexec's exec.path match needs the installed helper itself;
 * pkexec resets the environment, so nothing the user sets reaches the root process.
 */
export function helperArgv(o: LauncherOptions, elevation: 'direct' | 'pkexec', req: HelperRequest): string[] {
  return elevation === 'pkexec'
    ? [o.pkexec ?? PKEXEC_PATH, o.installedHelper, ...helperArgs(req)]
    : [o.nodePath, '--enable-source-maps', o.helperScript, ...helperArgs(req)];
}

/** The refusal for a missing piece of the privileged path (exit 3): what is missing and the command that fixes it; nothing changed. */
export function notInstalledResult(gap: InstallGap, req: HelperRequest): ResultEvent {
  return {
    type: 'result',
    op: req.verb,
    ok: false,
    exitCode: EXIT.refused,
    code: gap.code,
    message: `${req.verb[0]!.toUpperCase()}${req.verb.slice(1)} ${gap.message} Nothing changed.`,
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

/**
 * Runs one lifecycle verb in the privileged helper and streams its events to `onEvent`.
 * Resolves to the result event: a refusal (exit 3) when a piece of the privileged path is
 * missing (installed.ts) or pkexec was denied (pkexec-denial.ts), else the helper's own result.
 */
export async function runHelper(o: LauncherOptions, req: HelperRequest, onEvent: (e: LifecycleEvent) => void): Promise<ResultEvent> {
  // Looked for now, not at launch: installing (or removing) the helper counts at the next click.
  const gap = o.uid === 0 ? null : o.installGap();
  if (gap) {
    const result = notInstalledResult(gap, req);
    onEvent(result);
    return result;
  }
  const elevation = o.uid === 0 ? 'direct' : 'pkexec';
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
    // No result from the helper: a piece removed between the look and the spawn (pkexec says
    // "Error accessing …", or is gone itself) is still that piece's refusal; else a denial or a failure.
    const ended = (code: number | null, text: string): ResultEvent => {
      const late = elevation === 'pkexec' ? o.installGap() : null;
      return late ? notInstalledResult(late, req) : denialResult(req, elevation, code, text);
    };
    child.on('error', (err) => resolve(ended(null, err.message)));
    child.on('close', (code) => {
      for (const e of parseEventLines(buffer)) {
        if (e.type === 'result') result = e;
        onEvent(e);
      }
      resolve(result ?? ended(code, stderr));
    });
  });
}
