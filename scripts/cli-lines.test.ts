/**
 * Every command line of the CLI a user is told to run is built with shared/fix.ts cliCommand (the
 * runtime's CLI: `k2s-dns` installed, `npx k2s-dns` in a checkout, the sandbox's wrapper, with
 * `sudo ` for root verbs), so it works as printed (walk5 H2: a bare `k2s-dns query …` in the
 * UPSTREAM_UNVERIFIED warning and `Run k2s-dns stop, then start.` in the watchdog's log line
 * failed in the sandbox). A grep over the product files of electron/, shared/ and renderer/ for
 * a literal `k2s-dns VERB` outside comments; the few that name a command in prose (not a line
 * to paste) are listed in PROSE with where and why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productFiles, REPO } from './lib/repo-files';

/** The CLI's verbs (electron/cli/usage.ts) and its companions' names. */
const VERB = /(?<![\w./-])k2s-dns (?:start|stop|uninstall|status|recover|zones|query|diff|doctor|ui|logs|follow-watch|capture-watch)\b/g;

/** `file: the hit and up to 3 words after it` of literal `k2s-dns VERB` in prose or synopsis, allowed. */
const PROSE = new Set([
  // The help text's synopsis lines (`k2s-dns --help`), not fixes.
  'electron/cli/usage.ts: k2s-dns start [--kubeconfig PATH] [--engine',
  'electron/cli/usage.ts: k2s-dns stop [--on-drift keep|restore] [--restore',
  'electron/cli/usage.ts: k2s-dns uninstall [--on-drift keep|restore] [--restore',
  "electron/cli/usage.ts: k2s-dns status [--json]',",
  'electron/cli/usage.ts: k2s-dns recover [--force] [--json]  finish',
  'electron/cli/usage.ts: k2s-dns zones [--kubeconfig PATH] [--allow-zone',
  'electron/cli/usage.ts: k2s-dns query NAME [--type A|AAAA|PTR|SRV|TXT|CNAME|MX|NS|SOA]',
  "electron/cli/usage.ts: k2s-dns diff [--json]',",
  'electron/cli/usage.ts: k2s-dns doctor [--kubeconfig PATH] [--dnsproxy',
  'electron/cli/usage.ts: k2s-dns ui [--port N] [--kubeconfig',
  // Names the verb in a refusal whose fix, in the same sentence, is asRootWays('recover').
  'electron/cli/recover-refusal.ts: k2s-dns recover puts the saved',
  // The companions' own names in their log lines and refusals ("started by k2s-dns start": who runs them).
  'electron/core/capture/capture-main.ts: k2s-dns capture-watch: ${line}\\n`);',
  'electron/core/capture/capture-main.ts: k2s-dns capture-watch opens a packet',
  'electron/core/capture/capture-main.ts: k2s-dns start.\\n\');',
  // The companion bundle's own usage line (capture-watch-entry.ts): who runs it, not a fix.
  'electron/core/capture/capture-watch-entry.ts: k2s-dns start)\\n`);',
  'electron/core/capture/capture-main.ts: k2s-dns capture-watch: ${(err as Error).message}\\n`);',
  'electron/core/lifecycle/follow-main.ts: k2s-dns follow-watch rewrites /etc/resolv.conf and',
  'electron/core/lifecycle/follow-main.ts: k2s-dns start.\\n\');',
  'electron/core/lifecycle/follow-main.ts: k2s-dns follow-watch (PID ${process.pid}) watches',
  // The internal verbs' own --help (core/internal-help.ts): what they are and who runs them, not a fix.
  'electron/core/internal-help.ts: k2s-dns capture-watch is internal: the',
  'electron/core/internal-help.ts: k2s-dns start',
  'electron/core/internal-help.ts: k2s-dns follow-watch is internal: the',
  'electron/core/internal-help.ts: k2s-dns start runs as root',
  'electron/core/logs/log-source.ts: k2s-dns logs: ${err.message}`)));',
  'electron/core/logs/read-problems.ts: k2s-dns logs: ${err.message}`);',
  // Doctor meanings and a fix's aside: what a start or stop does ("k2s-dns start refuses"), not a line to run.
  'electron/core/doctor/port53.ts: k2s-dns start refuses (PORT_IN_USE).`,',
  'electron/core/doctor/port53.ts: k2s-dns start would refuse.\',',
  'electron/core/doctor/resolver-refusals.ts: k2s-dns start refuses (IMMUTABLE).\',',
  'electron/core/doctor/resolver-refusals.ts: k2s-dns stop puts the flag',
  'electron/core/doctor/resolver-refusals.ts: k2s-dns start refuses (BIND_MOUNTED).\',',
  'electron/core/doctor/wsl.ts: k2s-dns start refuses (WSL_RESOLV_CONF).`,',
  // Names the command whose URL the user opened (the web UI's token error).
  'electron/web/server.ts: k2s-dns ui` printed (it ends',
  // The renderer knows no CLI name: the ways its backend is started, named.
  'renderer/src/api/web-invoke.ts: k2s-dns ui) and open the',
  'renderer/src/components/TokenScreen.tsx: k2s-dns ui</code> (each launch prints',
  'renderer/src/components/TokenScreen.tsx: k2s-dns ui</code> printed (it ends',
  'renderer/src/components/TokenScreen.tsx: k2s-dns ui</code> prints a new',
  // The error catalogue's meanings (docs), not a fix.
  'shared/error-codes.ts: k2s-dns status` shows.\' },',
  // The comment line in the managed resolv.conf (bytes every start writes; docs/host-integration.md quotes it).
  'shared/k2s-paths.ts: k2s-dns stop" or "k2s-dns uninstall"',
  'shared/k2s-paths.ts: k2s-dns uninstall" (or Stop in',
  // Who asked a query-log row (start's own verify lookups, hidden by default): an origin, not a line to run.
  "electron/cli/print-queries.ts: k2s-dns start's check]\";",
  "electron/cli/print-queries.ts: k2s-dns start's check\" : \";",
  "electron/cli/print-queries.ts: k2s-dns start's checks\") : `;",
  "electron/cli/print-queries.ts: k2s-dns start's ${startChecks === 1",
  "renderer/src/components/LogsPanel.tsx: k2s-dns start&apos;s check</span> : null}</span>",
  "renderer/src/components/LogsPanel.tsx: k2s-dns start made to verify",
  "renderer/src/lib/log-counts.ts: k2s-dns start's ${hiddenStartChecks === 1",
]);

/** Every literal `k2s-dns VERB` outside comment lines of `text`, as `file: hit and the 3 words after it`. */
function hits(file: string, text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) continue;
    for (const m of line.matchAll(VERB)) out.push(`${file}: ${/^k2s-dns \S+(?:\s+\S+){0,3}/.exec(line.slice(m.index))![0]}`);
  }
  return out;
}

const HITS = productFiles().flatMap((f) => hits(f, readFileSync(join(REPO, f), 'utf8')));

describe('CLI command lines in product code', () => {
  it('finds the bare lines it should (the grep works)', () => {
    expect(hits('x.ts', '  warning = `… check it with k2s-dns query ${n} --server ${a}, or`;')).toEqual(['x.ts: k2s-dns query ${n} --server ${a},']);
    expect(hits('x.ts', 'echo "… not restarting it. Run k2s-dns stop, then start."')).toEqual(['x.ts: k2s-dns stop, then start."']);
    expect(hits('x.ts', '// a comment: k2s-dns stop\n * k2s-dns start\n`${cliCommand(\'stop\', true)}` /usr/bin/k2s-dns stop 20-k2s-dns.conf')).toEqual([]);
    expect(HITS.length).toBeGreaterThanOrEqual(PROSE.size);
  });

  it('names the CLI with cliCommand wherever a line is to be run (prose naming a command: PROSE, with why)', () => {
    expect(HITS.filter((h) => !PROSE.has(h))).toEqual([]);
  });

  it('PROSE has no entry left that the code no longer has', () => {
    expect([...PROSE].filter((p) => !HITS.includes(p))).toEqual([]);
  });
});
