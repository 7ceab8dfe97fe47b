/**
 * `sudo npm run sandbox:ctl -- coredns down|up`, `api down|up`, `upstream down|up`, `network change|back`, `status`:
 * fakes an outage in a running `npm run sandbox` (e2e/sandbox-control.ts) so the app's
 * CoreDNS-down, API-down and upstream-down states can be seen without a cluster to break. It finds the sandbox by its control socket
 * (`<tmp>/k2sdns-app-*\/control.sock`); with several sandboxes running, pass `--dir DIR` (the
 * sandbox prints its lines with it). Exit status: 0 done, 1 the sandbox said error or did not
 * answer, 2 usage.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_CONTROLS, sendControl } from './sandbox-control';

/** The usage text: every command with what it does. */
function usage(): string {
  return ['usage: sudo npm run sandbox:ctl -- [--dir DIR] COMMAND', '', ...SANDBOX_CONTROLS.map((c) => `  ${c.command.padEnd(14)} ${c.does}`), ''].join('\n');
}

/** Control sockets of the sandboxes running now (their temp dirs hold one). */
function sandboxSockets(): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(tmpdir()).filter((n) => n.startsWith('k2sdns-app-'));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    try {
      return readdirSync(join(tmpdir(), n)).includes('control.sock') ? [join(tmpdir(), n, 'control.sock')] : [];
    } catch {
      return []; // a dir this user may not list (the sandbox's is 0711 root)
    }
  });
}

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  let dir: string | undefined;
  const at = args.indexOf('--dir');
  if (at >= 0) {
    dir = args[at + 1];
    args.splice(at, 2);
  }
  const command = args.join(' ').trim().toLowerCase();
  if (!dir && (command === '' || command === 'help' || command === '--help')) {
    process.stdout.write(usage());
    return command === '' ? 2 : 0;
  }
  if (!SANDBOX_CONTROLS.some((c) => c.command === command)) {
    process.stderr.write(`unknown command "${command}"\n${usage()}`);
    return 2;
  }
  let socket: string;
  if (dir) socket = join(dir, 'control.sock');
  else {
    const found = sandboxSockets();
    if (found.length === 0) {
      process.stderr.write(`No running sandbox found (no ${join(tmpdir(), 'k2sdns-app-*', 'control.sock')} readable here). Start one with sudo npm run sandbox; this command needs root too.\n`);
      return 1;
    }
    if (found.length > 1) {
      process.stderr.write(`${found.length} sandboxes run; name one with --dir:\n${found.map((f) => `  --dir ${f.slice(0, -'/control.sock'.length)}`).join('\n')}\n`);
      return 2;
    }
    socket = found[0]!;
  }
  try {
    const reply = await sendControl(socket, command);
    process.stdout.write(`${reply}\n`);
    return reply.startsWith('ok:') ? 0 : 1;
  } catch (err) {
    process.stderr.write(`The sandbox at ${socket} did not answer: ${(err as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
