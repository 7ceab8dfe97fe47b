/**
 * Diagnostic: self and total ms per function over the start windows of several CPU profiles
 * (start-ab.ts START_PROF: NAME.cpuprofile with NAME.win = "FROM_US TO_US", monotonic µs), summed
 * then divided by the number of profiles (mean ms per start); `(idle)` counted apart; and per
 * step (the .win file's step events, start-ab.ts) and the gaps between steps, wall and busy ms.
 * Run: node --import tsx scripts/bench/prof-window.ts DIR PREFIX [N]
 */
import { readdirSync, readFileSync } from 'node:fs';

import { profTally, type ProfNode as Node } from './prof-tally';

const [dir, prefix = '', top = '40'] = process.argv.slice(2);
const files = readdirSync(dir!).filter((f) => f.startsWith(prefix) && f.endsWith('.cpuprofile'));
const { self, total, add } = profTally();
const perStep = new Map<string, { wall: number; busy: number }>();
let busy = 0;
let idle = 0;
let count = 0;
for (const f of files) {
  let parts: string[];
  try {
    parts = readFileSync(`${dir}/${f.replace(/\.cpuprofile$/, '.win')}`, 'utf8').trim().split(' ');
  } catch {
    continue;
  }
  const win = parts.slice(0, 2).map(Number);
  // "step:status@µs" events: each step from its running event to the next event, the rest a gap.
  const events = (parts[2] ?? '').split(',').filter(Boolean).map((e) => ({ what: e.split('@')[0]!, at: Number(e.split('@')[1]) }));
  const segments = events.slice(0, -1).map((e, i) => ({ name: e.what.endsWith(':running') ? e.what.split(':')[0]! : `(after ${e.what.split(':')[0]})`, from: e.at, to: events[i + 1]!.at }));
  for (const s of segments) {
    const r = perStep.get(s.name) ?? { wall: 0, busy: 0 };
    r.wall += (s.to - s.from) / 1000;
    perStep.set(s.name, r);
  }
  count++;
  const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]!;
    if (t < win[0]! || t > win[1]!) continue;
    const dt = (p.timeDeltas[i + 1] ?? p.timeDeltas[i]!) / 1000;
    const n = byId.get(p.samples[i]!)!;
    if (n.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    busy += dt;
    const seg = segments.find((s) => t >= s.from && t < s.to);
    if (seg) perStep.get(seg.name)!.busy += dt;
    add(n, byId, parent, dt);
  }
}
const per = (v: number) => (v / count).toFixed(1).padStart(7);
console.log(`${count} profiles; per start: busy ${per(busy)} ms, idle ${per(idle)} ms`);
console.log('--- per step (and the gaps between steps): wall, busy ms');
for (const [k, v] of perStep) console.log(`${per(v.wall)} ${per(v.busy)}  ${k}`);
console.log('--- self');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${per(v)} ms  ${k}`);
console.log('--- total');
for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${per(v)} ms  ${k}`);
