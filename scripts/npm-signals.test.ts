/**
 * The long-running npm scripts (`npm start`, `npm run sandbox`, `npm run try-package`) stop on a
 * SIGINT or SIGTERM sent to npm's own PID, not only on a terminal's Ctrl-C (which signals the
 * whole process group). npm forwards those signals to the `sh -c SCRIPT` it runs
 * (@npmcli/run-script signal-manager.js); a shell started in the background of a
 * non-interactive shell has SIGINT ignored (POSIX 2.11, "Signals and Error Handling") and a
 * waiting `sh` does not pass it on, so the script's first word is `exec`: sh becomes node, and
 * node's own handler gets the signal.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './lib/repo-files';

const LONG_RUNNING = ['start', 'sandbox', 'try-package'];

/**
 * Runs `npm run s` for a package whose script `s` is `script`, in the background of a shell
 * (SIGINT ignored), sends SIGINT to npm's PID once node printed `ready PID` → what was printed.
 * A node that did not get it within 5 s (the property under test is an absence) is killed by
 * its PID, so nothing is left running.
 */
async function interruptNpm(script: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'k2sdns-npm-signal-'));
  try {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'sig', version: '1.0.0', scripts: { s: script } }));
    // `sh -c 'npm run s & wait'`: npm and what it runs start with SIGINT ignored, as from a script's `&`.
    const shell = spawn('sh', ['-c', 'npm run --silent s & echo "npm $!"; wait'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let nodePid = 0;
    let timer: NodeJS.Timeout | undefined;
    shell.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const npmPid = /^npm (\d+)$/m.exec(out)?.[1];
      const ready = /^ready (\d+)$/m.exec(out)?.[1];
      if (!nodePid && npmPid && ready) {
        nodePid = Number(ready);
        process.kill(Number(npmPid), 'SIGINT');
        timer = setTimeout(() => process.kill(nodePid, 'SIGKILL'), 5_000);
      }
    });
    const code = await new Promise<number | null>((resolve) => shell.on('close', (c) => resolve(c)));
    clearTimeout(timer);
    return `${out}exit ${code}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const NODE = `node -e "process.on('SIGINT', () => { console.log('node got SIGINT'); process.exit(0); }); console.log('ready', process.pid); setInterval(() => {}, 1000)"`;

describe('npm scripts and signals', () => {
  it('every long-running script starts with exec, so npm passes its SIGINT/SIGTERM to node', async () => {
    const scripts = (JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of LONG_RUNNING) expect(scripts[name], name).toMatch(/^exec node /);
  });

  it('exec node: a SIGINT to npm reaches node; without exec a background npm keeps running', async () => {
    expect(await interruptNpm(`exec ${NODE}`)).toMatch(/node got SIGINT\nexit 0$/);
    expect(await interruptNpm(NODE)).not.toContain('node got SIGINT');
  }, 60_000);
});
