/**
 * Entry of the non-root parser process: reads a pcap stream on stdin (from the tcpdump reader,
 * tcpdump-argv.ts) and writes one JSON row per line on stdout (CapturedQuery, pairing.ts), then
 * a last line `{"counts": …}` at the end of input. Listeners: K2S_CAPTURE_LISTENERS, a comma
 * list of `address:port`; K2S_CAPTURE_FILL_PORT, the stop's block-fill port (block-fill.ts), whose
 * datagrams are counted apart; K2S_CAPTURE_RESOLV_CONF, the resolver file whose search list each
 * row records as `search` (host-search.ts; the companion writes the lines as they are);
 * K2S_CAPTURE_CPU_SHARE, its CPU budget as a share of one core (cpu-budget.ts; default 5 %,
 * `0` none; the bench sets it), lifted for the stop's drain when the pipe at fd 3 ends
 * (budget-lift.ts, pipeline.ts; K2S_CAPTURE_LIFT_FD=3 says it is there). Refuses to run as
 * root: it parses untrusted packets.
 */
import { PcapRows } from './pcap-rows';
import { watchHostSearch, type HostSearch } from './host-search';
import { rowLine } from './row-line';
import { budgetShare, CpuBudget } from './cpu-budget';
import { LIFT_FD_ENV, liftFd, onBudgetLift } from './budget-lift';
import { IdleRelease } from './idle-release';

if (process.getuid?.() === 0 && process.env.K2S_CAPTURE_ALLOW_ROOT !== '1') {
  process.stderr.write('k2s-dns capture: the packet parser does not run as root (run it as the user tcpdump -Z drops to)\n');
  process.exit(2);
}
const listeners = (process.env.K2S_CAPTURE_LISTENERS ?? '127.0.0.1:53').split(',').filter(Boolean);
let out = '';
const flush = () => {
  if (out !== '') process.stdout.write(out);
  out = '';
};
const fillPort = /^\d{1,5}$/.test(process.env.K2S_CAPTURE_FILL_PORT ?? '') ? Number(process.env.K2S_CAPTURE_FILL_PORT) : undefined;
let hostSearch: HostSearch | null = null;
const rows = new PcapRows({ listeners, fillPort, onRow: (r) => (out += rowLine(r, hostSearch?.current() ?? null)) });

// The CPU budget (cpu-budget.ts): past its share of a core, stdin is not read for what it owes,
// so tcpdump's pipe and kernel ring fill and the kernel drops (and counts) what the log cannot
// take. The end of the lift pipe (pipeline.ts, at the stop; budget-lift.ts) lifts it: the drain
// hands the last rows over at once.
const budget = new CpuBudget(budgetShare(process.env.K2S_CAPTURE_CPU_SHARE));
let resumeTimer: NodeJS.Timeout | undefined;
// Unanswered queries end on a timer, not only when the next packet comes (idle-release.ts).
const release = new IdleRelease({ rows, reading: () => resumeTimer === undefined, released: flush });
const resume = () => {
  resumeTimer = undefined;
  process.stdin.resume();
  release.arm();
};
const lift = () => {
  budget.lift();
  if (resumeTimer !== undefined) {
    clearTimeout(resumeTimer);
    resume();
  }
};
const liftAt = liftFd(process.env[LIFT_FD_ENV]);
if (liftAt !== null) onBudgetLift(liftAt, lift);
/** Stops reading stdin for what the budget says is owed (once: a pause is not stacked). */
function keepBudget(): void {
  const owed = budget.owedMs();
  if (owed > 0 && resumeTimer === undefined) {
    process.stdin.pause();
    resumeTimer = setTimeout(resume, owed);
  }
}

/** Reads the pcap stream from stdin to its end. */
function readInput(): void {
  process.stdin.on('data', (chunk: Buffer) => {
    rows.push(chunk);
    flush();
    keepBudget();
    release.arm();
    if (rows.failed) {
      process.stderr.write(`k2s-dns capture: ${rows.failed}\n`);
      process.exit(1);
    }
  });
  process.stdin.on('end', () => {
    hostSearch?.stop();
    release.stop();
    rows.end();
    out += `${JSON.stringify({ counts: rows.counts })}\n`;
    flush();
  });
}

// The search list is read before the first row (stdin waits in its pipe until readInput listens).
const resolvConf = process.env.K2S_CAPTURE_RESOLV_CONF;
void (resolvConf ? watchHostSearch(resolvConf) : Promise.resolve(null)).then((h) => {
  hostSearch = h;
  readInput();
});
