/** Self and total time per function of V8 .cpuprofile samples (prof-top.ts, prof-window.ts). */

/** A .cpuprofile node: its call frame and children's ids. */
export interface ProfNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

/** `function file:line` of a node (the url's last two parts). */
export const profName = (n: ProfNode) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;

/** Tallies of one or more profiles: `add` one sample (its leaf node, its ms) to self (the leaf) and total (each function on its stack once). */
export function profTally() {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const add = (n: ProfNode, byId: Map<number, ProfNode>, parent: Map<number, number>, dt: number) => {
    self.set(profName(n), (self.get(profName(n)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
      const k = profName(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  };
  return { self, total, add };
}
