import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createNodeDeps } from '../core/lifecycle/node-deps';
import { createRealBackend } from '../core/backend-real';
import { startWebServer } from '../web/server';
import { ELECTRON_INSTALL_HINT, findElectronBinary } from './electron-binary';
import { APP_ROOT, appPath } from '../core/app-root';
import { uiBeforeNotice, uiUrlLines } from './ui-notice';
import { isAddressInUse, portInUseNow } from './ui-port';
import { setAppVerb } from '../../shared/fix';
import { cliInvocation } from '../core/cli-invocation';
import { appLaunchLine } from './app-launch';

const repo = APP_ROOT;
const staticDir = appPath('out/renderer');

/** Runs a command with inherited stdio; resolves to its exit code. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: 'inherit', cwd: repo, env });
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Builds the renderer with vite when out/renderer is missing (first run). */
async function ensureRenderer(): Promise<boolean> {
  if (existsSync(`${staticDir}/index.html`)) return true;
  process.stdout.write('Building the UI (first run, about 10 s)…\n');
  return (await run(process.execPath, [`${repo}node_modules/vite/bin/vite.js`, 'build', '--logLevel', 'warn'])) === 0;
}

/** The `k2s-dns app` options the Electron entry reads from its argv, as arguments. */
export function electronArgs(o: UiOptions): string[] {
  return [...(o.kubeconfig ? ['--kubeconfig', o.kubeconfig] : []), ...(o.verifyName ? ['--verify-name', o.verifyName] : [])];
}

/** Options of `k2s-dns ui|app`. */
export interface UiOptions {
  port?: number;
  kubeconfig?: string;
  verifyName?: string;
}

/**
 * `k2s-dns ui`: the web mode on 127.0.0.1 (prints the URL with its per-launch token in the
 * fragment, `#token=…`, which the browser never sends to any server; serves
 * until Ctrl-C). `k2s-dns app`: the Electron window where an Electron binary exists, else web mode.
 */
export async function runUi(mode: 'ui' | 'app', o: UiOptions): Promise<number> {
  // Root: Start/Stop/Uninstall act at once, on this host's real /etc/resolv.conf (README); in the sandbox, on its own.
  const before = uiBeforeNotice(process.getuid?.());
  if (before !== null) process.stdout.write(`${before}\n`);
  if (mode === 'app') {
    const found = findElectronBinary();
    // Electron runs package.json "main": the bundled dist/app-entry.mjs (npm run build), which
    // reads the same --kubeconfig/--verify-name flags (electron/main/app-entry.ts).
    if (found.exe !== null) return run(found.exe, [repo, ...electronArgs(o)]);
    process.stdout.write(`No Electron window: ${found.why}; ${ELECTRON_INSTALL_HINT}. Starting web mode instead.\n`);
  }
  // Web mode: the app's fixes that restart it with a kubeconfig name this command as it was typed (`npm start -- --kubeconfig PATH`).
  setAppVerb(mode, appLaunchLine(mode, cliInvocation(), process.env, process.cwd(), repo));
  if (!(await ensureRenderer())) {
    process.stderr.write('Building the UI failed; run `npx vite build` to see why.\n');
    return 1;
  }
  const backend = createRealBackend({ deps: await createNodeDeps(), warmUp: true, ...(o.kubeconfig ? { kubeconfig: o.kubeconfig } : {}), ...(o.verifyName ? { verifyName: o.verifyName } : {}) });
  let server: Awaited<ReturnType<typeof startWebServer>>;
  try {
    server = await startWebServer({ backend, staticDir, ...(o.port !== undefined ? { port: o.port } : {}) });
  } catch (e) {
    if (!isAddressInUse(e) || o.port === undefined) throw e;
    process.stderr.write(`${await portInUseNow(mode, o.port)}\n`);
    return 1;
  }
  process.stdout.write(uiUrlLines(server.url));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}
