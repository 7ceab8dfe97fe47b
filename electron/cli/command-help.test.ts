import { describe, expect, it } from 'vitest';
import { runMain as run } from './run-main.fixture';
import { commandUsage, HELP_VERBS, helpAnswer, unknownCommandText, USAGE } from './usage';
import { cliInvocation } from '../core/cli-invocation';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setCliKubeconfig, setKubectlKubeconfig } from '../../shared/fix';

describe('k2s-dns VERB --help (walk15: it printed the whole help)', () => {
  it('start --help prints start\'s synopsis, what it changes and its flags, not the other commands', async () => {
    const { code, stdout } = await run(['start', '--help']);
    expect(code).toBe(0);
    expect(stdout).toBe(commandUsage('start'));
    expect(stdout).toMatch(/^Usage:\n {2}k2s-dns start \[--kubeconfig PATH\]/);
    expect(stdout).toContain('Changes (root): /etc/resolv.conf');
    expect(stdout).toContain('--on-network-change  when NetworkManager');
    expect(stdout).toContain('Kubeconfig order:');
    expect(stdout).not.toContain('k2s-dns stop [');
    expect(stdout).not.toContain('--on-drift  when');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('Every command, and the exit statuses of all: k2s-dns --help');
  });

  it('stop -h prints stop\'s flags and its exit 5, not start\'s', async () => {
    const { code, stdout } = await run(['stop', '-h']);
    expect(code).toBe(0);
    expect(stdout).toContain('k2s-dns stop [--on-drift keep|restore] [--restore newest|start] [--json]');
    expect(stdout).toContain('--restore  which saved copy stop puts back');
    // Walk 23: it named only --on-drift keep; the code (stop.ts) also exits 5 for a saved copy put back that resolves nothing.
    expect(stdout).toContain('Exit status: 0 done; 1 failed and rolled back (host as before); 2 usage;');
    expect(stdout).toContain(`stop, uninstall: 5 stopped as asked, but the file left at /etc/resolv.conf leaves no name
  resolving (a warning RESOLVER_DOWN; status right after exits 5 too): the file --on-drift keep
  kept, or the saved copy put back, is no file, a link to nothing, has no nameserver line or
  names only addresses the stopped proxy listened on (127.0.0.1);`);
    expect(stdout).not.toContain('--allow-zone');
  });

  it('no help begins or ends with an empty line: one newline at the end (new-user walk: `help start` read as beginning with one)', async () => {
    for (const args of [['--help'], ['help'], ...HELP_VERBS.flatMap((v) => [['help', v], [v, '--help']])]) {
      const { stdout } = await run(args);
      expect(stdout.startsWith('\n'), args.join(' ')).toBe(false);
      expect(stdout.endsWith('\n') && !stdout.endsWith('\n\n'), args.join(' ')).toBe(true);
    }
  });

  it('every listed command has its own help: its synopsis from the full help, and nothing of the others\' synopses', () => {
    const synopsis = (v: string) => new RegExp(`^ {2}k2s-dns ${v}\\b`, 'm');
    for (const verb of HELP_VERBS) {
      const own = commandUsage(verb);
      const first = own.split('\n')[1]!;
      expect(USAGE).toContain(first);
      expect(own).toContain('Changes ');
      for (const other of HELP_VERBS) if (other !== verb) expect(own).not.toMatch(synopsis(other));
    }
  });

  it('help start, stop and uninstall give every flag of their synopsis a line of its own (new-user walk: --engine, --dnsproxy, --upstream, --verify-name, --no-log-queries and --json were only in the usage line)', () => {
    for (const verb of ['start', 'stop', 'uninstall'] as const) {
      const own = commandUsage(verb);
      const flags = [...own.split('\n\n')[0]!.matchAll(/\[(--[a-z-]+)/g)].map((m) => m[1]!);
      expect(flags.length, verb).toBeGreaterThanOrEqual(verb === 'start' ? 10 : 3);
      for (const flag of flags) {
        if (flag === '--kubeconfig') expect(own).toContain('\nKubeconfig order: --kubeconfig');
        else expect(own, `${verb} ${flag}`).toMatch(new RegExp(`^${flag}\\b`, 'm'));
      }
    }
  });

  it('each command\'s flag paragraphs are the whole help\'s, word for word (the man page is the whole help: scripts/package/texts.ts)', () => {
    for (const verb of HELP_VERBS) {
      // After the synopsis and what it changes: the paragraphs, the kubeconfig order (its own exit line is the whole help's reworded).
      const paragraphs = commandUsage(verb).split('\n\n').slice(2).filter((p) => !/^(Exit status|Every command)/.test(p));
      if (verb === 'start') expect(paragraphs.join('\n')).toContain('--upstream IP[:PORT]  ');
      for (const p of paragraphs) for (const line of p.split('\n')) expect(USAGE, `${verb}: ${line}`).toContain(line);
    }
  });

  it('status --help gives its exit statuses under "Exit status:"', async () => {
    const { stdout } = await run(['status', '--help']);
    expect(stdout).toContain('\nExit status: 0 running or stopped; 1 degraded');
    expect(stdout).toContain('5 stopped, but no name resolves');
  });

  it('every command\'s own help has an "Exit status:" paragraph (diff, ui and app had none), the whole help each line', () => {
    for (const verb of HELP_VERBS) expect(commandUsage(verb), verb).toMatch(/\n\nExit status: /);
    expect(commandUsage('diff')).toContain('\nExit status: 0 the diff printed (the same, changed, or nothing saved: unlike diff(1), a change is\nnot exit 1); 1 no diff could be shown: as a user while K2s DNS runs the saved copy is root\'s');
    expect(commandUsage('ui')).toContain('\nExit status: 0 stopped by Ctrl-C (SIGINT or SIGTERM); 1 the web server could not listen');
    expect(commandUsage('app')).toContain('\nExit status: in web mode as ui; with the Electron window the window\'s own: 0 closed');
    for (const verb of ['diff', 'ui', 'app']) expect(USAGE, verb).toMatch(new RegExp(`^ {2}${verb}: `, 'm'));
  });

  it('diff, ui and app exit 2 on a usage error, as their help says', async () => {
    expect((await run(['diff', 'extra'])).code).toBe(2);
    expect((await run(['ui', '--port', 'x'])).code).toBe(2);
    expect((await run(['app', '--port', '70000'])).code).toBe(2);
  });

  it('--help and help alone still print the whole help', async () => {
    expect((await run(['--help'])).stdout).toBe(USAGE);
    expect((await run(['help'])).stdout).toBe(USAGE);
  });

  it('help VERB and --help VERB print that command\'s help (they printed the whole help); an unknown VERB is a usage error, as VERB --help', async () => {
    for (const args of [['help', 'stop'], ['--help', 'stop'], ['-h', 'stop']]) expect(await run(args), args.join(' ')).toEqual({ code: 0, stdout: commandUsage('stop'), stderr: '' });
    // From this checkout the CLI is `npx k2s-dns` (electron/core/cli-invocation.ts), as in every other hint.
    expect(await run(['help', 'bogus'])).toEqual({ code: 2, stdout: '', stderr: 'Unknown command "bogus"; run npx k2s-dns --help for the list.\n' });
    expect(await run(['bogus', '--help'])).toEqual({ code: 2, stdout: '', stderr: 'Unknown command "bogus"; run npx k2s-dns --help for the list.\n' });
    expect(await run(['bogus'])).toEqual({ code: 2, stdout: '', stderr: 'Unknown command "bogus"; run npx k2s-dns --help for the list.\n' });
    // No help of its own: the whole help, which lists it.
    expect(await run(['help', 'version'])).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    // A flag after it is no command: the whole help, as before (`--help --help`, `help --json`).
    for (const args of [['--help', '--help'], ['help', '--json'], ['-h', '--version']]) expect(await run(args), args.join(' ')).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    // entry.ts answers these before main loads: the same answers.
    expect(helpAnswer(['help', 'queries'])).toEqual({ code: 0, stdout: commandUsage('queries'), stderr: '' });
    expect(helpAnswer([])).toEqual({ code: 2, stdout: USAGE, stderr: '' });
    expect(helpAnswer(['status'])).toBeNull();
  });

  it('the whole help, which each command\'s help points to for "the exit statuses of all", has every command\'s own (query, queries and doctor were missing)', () => {
    // Each exit status a command's help gives, in the whole help's words (the line's own title aside).
    const statuses = (text: string) => [...text.matchAll(/\b(\d) ([^;.]+?)(?=;|\.(?:\s|$))/g)].map((m) => `${m[1]} ${m[2]!.replace(/\s+/g, ' ')}`);
    const whole = USAGE.replace(/\s+/g, ' ');
    for (const verb of HELP_VERBS) {
      const own = commandUsage(verb);
      const exit = own.slice(own.indexOf('\nExit status:') + 1, own.indexOf('\n\nEvery command'));
      if (!own.includes('\nExit status:')) continue;
      for (const s of statuses(exit)) expect(whole, `${verb}: ${s}`).toContain(s);
    }
    expect(USAGE).toMatch(/^ {2}query: 0 a server answered \(NXDOMAIN and SERVFAIL are answers\); 1 nothing answered/m);
    expect(USAGE).toMatch(/^ {2}queries: 0 rows printed, or none logged yet \(stderr says so\), also after a stop \(the earlier\n {2}runs' rows; stderr's last line says K2s DNS is stopped: no new row comes until a start\); 1 the\n {2}exact query log is unavailable \(the reason is printed: none yet before K2s DNS ran/m);
    expect(USAGE).toMatch(/^ {2}doctor: 0 no finding is an error; 1 a finding is an error/m);
  });

  it('new-user walk: the unknown-command hint names the CLI as a usage error\'s hint does — installed k2s-dns, npx k2s-dns in a checkout, the sandbox\'s wrapper', async () => {
    expect(unknownCommandText('bogus', cliInvocation('/usr/lib/k2s-dns/', {}))).toBe('Unknown command "bogus"; run k2s-dns --help for the list.');
    expect(unknownCommandText('bogus', cliInvocation('/home/ada/src/k2s-dns/', {}))).toBe('Unknown command "bogus"; run npx k2s-dns --help for the list.');
    expect(unknownCommandText('bogus', cliInvocation('/home/ada/src/k2s-dns/', { K2S_DNS_CLI: '/tmp/k2sdns-app-Ab12/k2s-dns' }))).toBe('Unknown command "bogus"; run /tmp/k2sdns-app-Ab12/k2s-dns --help for the list.');
    // One name in both hints of this run.
    const unknown = /run (.+) --help for the list/.exec((await run(['bogus'])).stderr)![1];
    const usage = /Run (.+) query --help for usage/.exec((await run(['query'])).stderr)![1];
    expect(unknown).toBe(usage);
  });

  it('a usage error points to that command\'s own help, in a sentence of its own (it ran on: "Unknown option \'--bogus\' Run k2s-dns --help")', async () => {
    const bad = await run(['start', '--bogus', '--help']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Unknown option '--bogus'\. Run (?:npx )?k2s-dns start --help for usage\.\n$/);
    // New-user walk 23: with --kubeconfig on the line, the hint put it after --help.
    const dir = await mkdtemp(join(tmpdir(), 'k2sdns-help-'));
    try {
      const kubeconfig = join(dir, 'sandbox.kubeconfig');
      await writeFile(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\n');
      const zone = await run(['zones', '--allow-zone', 'Ｋ8s.local', '--kubeconfig', kubeconfig]);
      expect(zone.code).toBe(2);
      expect(zone.stderr).toMatch(/^--allow-zone must be an ASCII zone name such as corp\.example, not "Ｋ8s\.local": .* Run (?:npx )?k2s-dns zones --help for usage\.\n$/);
      expect(zone.stderr).not.toContain('--kubeconfig');
    } finally {
      setCliKubeconfig(null);
      setKubectlKubeconfig(null);
      await rm(dir, { recursive: true, force: true });
    }
    const lines = await run(['queries', '--lines', 'x']);
    expect(lines.code).toBe(2);
    expect(lines.stderr).toMatch(/^--lines must be a whole number from 1 to 5000, not "x"\. Run (?:npx )?k2s-dns queries --help for usage\.\n$/);
  });
});
