/**
 * Diagnostic: self and total time per function of a V8 .cpuprofile (node --cpu-prof), only over
 * the samples between FROM and TO ms after the profile began.
 * Run: node --import tsx scripts/bench/prof-top.ts FILE.cpuprofile [FROM_MS] [TO_MS] [N]
 */
import { readFileSync } from 'node:fs';
import { profName as name, profTally, type ProfNode as Node } from './prof-tally';

const [file, from = '0', to = '1e12', top = '40'] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const { self, total, add } = profTally();
let t = 0;
let inWindow = 0;
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i]!;
  const ms = t / 1000;
  if (ms < Number(from) || ms > Number(to)) continue;
  const dt = (p.timeDeltas[i + 1] ?? p.timeDeltas[i]!) / 1000;
  const n = byId.get(p.samples[i]!)!;
  if (n.callFrame.functionName === '(idle)') continue;
  inWindow += dt;
  add(n, byId, parent, dt);
}
console.log(`busy ms in window: ${inWindow.toFixed(0)} over ${((Math.min(Number(to), t / 1000) - Number(from)) / 1000).toFixed(0)} s`);
console.log('--- self');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${v.toFixed(1).padStart(8)} ms  ${k}`);
console.log('--- total');
for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${v.toFixed(1).padStart(8)} ms  ${k}`);
// STACKS=name: the distinct call stacks (leaf → root, with ms) of samples under a function of that name.
if (process.env.STACKS) {
  const stacks = new Map<string, number>();
  let t2 = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t2 += p.timeDeltas[i]!;
    const ms = t2 / 1000;
    if (ms < Number(from) || ms > Number(to)) continue;
    const chain: string[] = [];
    for (let id: number | undefined = p.samples[i]; id !== undefined; id = parent.get(id)) chain.push(name(byId.get(id)!));
    const at = chain.findIndex((c) => c.startsWith(`${process.env.STACKS} `));
    if (at < 0) continue;
    const k = chain.slice(at).filter((c) => !c.includes('node:internal') && !c.includes('(root)')).join(' < ');
    stacks.set(k, (stacks.get(k) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  }
  console.log(`--- stacks under ${process.env.STACKS}`);
  for (const [k, v] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`${v.toFixed(1).padStart(8)} ms  ${k}`);
}
