/**
 * Diagnostic: the installed `k2s-dns stop` and `start` of two builds (A, B: two .deb files of
 * `npm run package`) on one booted Debian 13 host (debian-lifecycle.ts), interleaved: per engine
 * (one engine's rounds, then the other's, as the bench runs them) each round runs a start/stop
 * pair per build, the builds' order swapped every round, so load changes hit both alike. One host: A's package is installed with apt-get; each build's
 * /usr/lib/k2s-dns/dist and /var/cache/k2s-dns (its startup snapshot, built by the package's own
 * k2s-dns-snapshot, **and its own V8 code cache**: one cache for two builds runs every command
 * uncached, stop-ab.ts) are kept side by side and renamed into place for that build's pair.
 * Each command begins on an idle manager (managerIdle), as in the bench.
 * Run: bash e2e/bed/sandbox.sh node --import tsx scripts/bench/debian-stop-ab.ts ROUNDS A.deb B.deb
 * (the .deb files under this checkout: the host sees it at HOST_SRC, read-only). EXPLORE=FILE (a
 * sh script under this checkout) runs that script in the host on build A instead of the rounds
 * (a CPU profile, the units' timestamps…); what it leaves in the host's /var/tmp/out is copied to
 * .tmp/explore-out. Prints one JSON line per command and the medians per engine, verb and build,
 * with the load.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootPlainHost, hostStartArgs } from '../../e2e/bed/debian-host-cli';
import { debianHostMissing, HOST_SRC, REPO_ROOT, type DebianHost } from '../../e2e/bed/debian-host';
import { INSTALLED_CLI, managerIdle, timedCli } from './debian-lifecycle';
import { stepDurations } from './lifecycle';
import { figure } from './stats';

const [roundsArg = '6', aDeb, bDeb] = process.argv.slice(2);
if (!aDeb || !bDeb) throw new Error('usage: debian-stop-ab.ts ROUNDS A.deb B.deb');
const inHost = (p: string) => `${HOST_SRC}/${resolve(p).slice(REPO_ROOT.length + 1)}`;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const must = async (h: DebianHost, script: string) => {
  const r = await h.sh(script, 180_000);
  if (r.code !== 0) throw new Error(`${script}: ${r.stdout}${r.stderr}`);
  return r.stdout;
};
const missing = await debianHostMissing();
if (missing) throw new Error(missing);
const loadBefore = load();
const { tb, h } = await bootPlainHost();
const rows: { round: number; engine: string; verb: string; build: string; wall: number; steps: Record<string, number> }[] = [];
let current = 'A';
/** Renames build X's dist and cache into place (the one in place goes back to its own name). */
const use = async (x: string) => {
  if (x === current) return;
  await must(h, `set -e; mv /usr/lib/k2s-dns/dist /usr/lib/k2s-dns/dist.${current}; mv /var/cache/k2s-dns /var/cache/k2s-dns.${current}; mv /usr/lib/k2s-dns/dist.${x} /usr/lib/k2s-dns/dist; mv /var/cache/k2s-dns.${x} /var/cache/k2s-dns`);
  current = x;
};
try {
  const install = await h.run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-y', '-o', 'Acquire::Retries=0', 'install', inHost(aDeb)], { timeoutMs: 180_000 });
  if (install.code !== 0) throw new Error(`apt-get install: ${(install.stdout + install.stderr).slice(-400)}`);
  // B: its dist from its .deb, its own snapshot built in place, then both kept by name.
  await must(h, `set -e; rm -rf /tmp/b; dpkg-deb -x ${inHost(bDeb)} /tmp/b; mv /usr/lib/k2s-dns/dist /usr/lib/k2s-dns/dist.A; mv /var/cache/k2s-dns /var/cache/k2s-dns.A; cp -a /tmp/b/usr/lib/k2s-dns/dist /usr/lib/k2s-dns/dist; /usr/lib/k2s-dns/k2s-dns-snapshot; mv /usr/lib/k2s-dns/dist /usr/lib/k2s-dns/dist.B; mv /var/cache/k2s-dns /var/cache/k2s-dns.B; mv /usr/lib/k2s-dns/dist.A /usr/lib/k2s-dns/dist; mv /var/cache/k2s-dns.A /var/cache/k2s-dns`);
  // Warm each build's code cache (a first run per verb writes it).
  for (const x of ['A', 'B']) {
    await use(x);
    for (const engine of ['dnsmasq', 'adguard'] as const) {
      await timedCli(h, INSTALLED_CLI, hostStartArgs(engine));
      await managerIdle(h);
      await timedCli(h, INSTALLED_CLI, ['stop', '--json']);
      await managerIdle(h);
    }
  }
  let rounds = Number(roundsArg);
  // EXPLORE=FILE (under this checkout): that sh script run in the host on build A instead of the rounds.
  if (process.env.EXPLORE) {
    rounds = 0;
    await use('A');
    const r = await h.run(['sh', inHost(process.env.EXPLORE)], { timeoutMs: 300_000 });
    process.stdout.write(`${r.stdout}\n${r.stderr}\nexit ${r.code}\n`);
    // What it left in the host's /var/tmp/out, copied out (the source mount is read-only there).
    if (existsSync(`${h.disk}/var/tmp/out`)) cpSync(`${h.disk}/var/tmp/out`, `${REPO_ROOT}/.tmp/explore-out`, { recursive: true });
  }
  // One engine's rounds after the other's, each block after an unmeasured pair of that engine:
  // a start after the other engine's rewrites the proxy's unit, and its service step then waits
  // for a daemon-reload (100–250 ms measured) that the bench's rounds (one engine at a time) never
  // pay; alternating engines put that reload into every other start of each build.
  for (const engine of rounds > 0 ? (['dnsmasq', 'adguard'] as const) : []) {
    await managerIdle(h);
    await timedCli(h, INSTALLED_CLI, hostStartArgs(engine));
    await managerIdle(h);
    await timedCli(h, INSTALLED_CLI, ['stop', '--json']);
    for (let i = 0; i < rounds; i++) {
      for (const build of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
        await use(build);
        await managerIdle(h);
        const start = await timedCli(h, INSTALLED_CLI, hostStartArgs(engine));
        if (!start.result?.ok) throw new Error(`start ${build} ${engine}: ${JSON.stringify(start.events.at(-1) ?? start.stderr.slice(-300))}`);
        await managerIdle(h);
        const stop = await timedCli(h, INSTALLED_CLI, ['stop', '--json']);
        if (!stop.result?.ok) throw new Error(`stop ${build} ${engine}: ${JSON.stringify(stop.events.at(-1) ?? stop.stderr.slice(-300))}`);
        for (const [verb, r] of [['start', start], ['stop', stop]] as const) {
          const steps = stepDurations(r.events);
          rows.push({ round: i, engine, verb, build, wall: r.processMs, steps });
          process.stdout.write(`${JSON.stringify({ round: i, engine, verb, build, wall: Math.round(r.processMs), steps })}\n`);
        }
      }
    }
  }
} finally {
  await h.destroy();
  await tb.stop();
}
const f = (v: number[]) => {
  const x = figure(v.filter((n) => Number.isFinite(n)));
  return `${Math.round(x.median)} (${Math.round(x.min)}–${Math.round(x.max)})`;
};
for (const engine of ['dnsmasq', 'adguard']) {
  for (const verb of ['stop', 'start']) {
    for (const build of ['A', 'B']) {
      const rr = rows.filter((r) => r.engine === engine && r.verb === verb && r.build === build);
      const keys = [...new Set(rr.flatMap((r) => Object.keys(r.steps)))];
      process.stdout.write(`${engine} ${verb} ${build} (n=${rr.length}) ms median (min–max): wall ${f(rr.map((r) => r.wall))}; outside the steps (wall − total) ${f(rr.map((r) => r.wall - (r.steps.total ?? Number.NaN)))}; ${keys.map((k) => `${k} ${f(rr.map((r) => r.steps[k] ?? Number.NaN))}`).join(', ')}\n`);
    }
    // Per round, B's wall minus A's (the same round: the same load, give or take).
    const pairs = rows.filter((r) => r.engine === engine && r.verb === verb && r.build === 'B').flatMap((b) => rows.filter((a) => a.engine === engine && a.verb === verb && a.build === 'A' && a.round === b.round).map((a) => b.wall - a.wall));
    if (pairs.length) process.stdout.write(`${engine} ${verb} B − A per round, ms: median ${f(pairs)}; B faster in ${pairs.filter((d) => d < 0).length} of ${pairs.length}\n`);
  }
}
process.stdout.write(`load (1 min) before ${loadBefore}, after ${load()}\n`);
