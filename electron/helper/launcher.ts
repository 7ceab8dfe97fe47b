import { spawn } from 'node:child_process';
import type { LifecycleEvent, ResultEvent } from '../../shared/lifecycle-events';
import { EXIT } from '../../shared/lifecycle-events';
import { helperArgs, type HelperRequest } from './request';

/** How the main process gets root for the helper. */
export type Elevation = 'direct' | 'pkexec' | 'sudo-prompt';

/** Where the helper lives and whether the polkit action is installed. */
export interface LauncherOptions {
  /** Effective uid of the main process. */
  uid: number;
  /** Node binary that runs the helper script (process.execPath). */
  nodePath: string;
  /** Absolute path of bin/k2s-dns-helper.mjs (development and web mode). */
  helperScript: string;
  /** Installed helper that the polkit action's exec.path pins (resources/io.k2s.dns.policy). */
  installedHelper: string;
  /** The polkit policy and the installed helper both exist. */
  policyInstalled: boolean;
}

/** Root: run directly; polkit action installed: pkexec (argv, no shell); else sudo-prompt. */
export function chooseElevation(o: LauncherOptions): Elevation {
  if (o.uid === 0) return 'direct';
  return o.policyInstalled ? 'pkexec' : 'sudo-prompt';
}

/** argv for direct and pkexec runs. pkexec's exec.path match needs the installed helper itself. */
export function helperArgv(o: LauncherOptions, elevation: 'direct' | 'pkexec', req: HelperRequest): string[] {
  return elevation === 'pkexec'
    ? ['pkexec', o.installedHelper, ...helperArgs(req)]
    : [o.nodePath, o.helperScript, ...helperArgs(req)];
}

/** POSIX single-quoting: `'` becomes `'\''`. Rejects control characters (no line injection). */
export function shellQuote(part: string): string {
  if (/[\u0000-\u001f\u007f]/.test(part)) throw new Error('A helper argument contains a control character; refusing to build the command.');
  return `'${part.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command string sudo-prompt runs (it hands it to `/bin/bash -c` through pkexec, see
 * TOOLCHAIN.md), built only from fixed, validated parts, each single-quoted.
 */
export function sudoPromptCommand(o: LauncherOptions, req: HelperRequest): string {
  return [o.nodePath, o.helperScript, ...helperArgs(req)].map(shellQuote).join(' ');
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

/** The result when the helper ended without one (cancelled authorization, crash). */
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
 * Runs one lifecycle verb in the privileged helper and streams its events to `onEvent`
 * (sudo-prompt cannot stream: its events arrive when it ends). Resolves to the result event.
 */
export async function runHelper(o: LauncherOptions, req: HelperRequest, onEvent: (e: LifecycleEvent) => void): Promise<ResultEvent> {
  const elevation = chooseElevation(o);
  if (elevation === 'sudo-prompt') {
    const sudo = (await import('sudo-prompt')).default;
    const cmd = sudoPromptCommand(o, req);
    const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
      sudo.exec(cmd, { name: 'K2s DNS' }, (err, out, errOut) => resolve({ stdout: String(out ?? ''), stderr: `${String(errOut ?? '')}${err ? ` ${err.message}` : ''}`, code: err ? 1 : 0 }));
    });
    const events = parseEventLines(stdout);
    events.forEach(onEvent);
    return (events.findLast((e) => e.type === 'result') as ResultEvent | undefined) ?? missingResult(req, code, stderr);
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
