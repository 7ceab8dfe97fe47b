import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outerPidOf } from './outer-pid';

let dir = '';
afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

/** A fake /proc: pid → [NSpid entries, children]. */
async function fakeProc(tree: Record<number, [number[], number[]]>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'outer-pid-'));
  for (const [pid, [nspid, kids]] of Object.entries(tree)) {
    await mkdir(join(dir, pid, 'task', pid), { recursive: true });
    await writeFile(join(dir, pid, 'status'), `Name:\tx\nPid:\t${pid}\nNSpid:\t${nspid.join('\t')}\n`);
    await writeFile(join(dir, pid, 'task', pid, 'children'), kids.length ? `${kids.join(' ')} ` : '');
  }
  return dir;
}

describe('outerPidOf', () => {
  it('finds the descendant whose innermost PID is the inside one, not the outside process with that number', async () => {
    // 22 out here is some host process (ksoftirqd in the walk that found this); inside, 22 is node.
    const proc = await fakeProc({ 100: [[100], [101]], 101: [[101], [102]], 102: [[102, 1], [11851]], 11851: [[11851, 22], []], 22: [[22], []] });
    expect(await outerPidOf(100, 22, proc)).toBe(11851);
    expect(await outerPidOf(100, 1, proc)).toBe(102);
  });

  it('gives null when no descendant is in a nested namespace with that PID', async () => {
    const proc = await fakeProc({ 100: [[100], [101]], 101: [[101], []], 22: [[22], []] });
    expect(await outerPidOf(100, 22, proc)).toBeNull();
    expect(await outerPidOf(100, 101, proc)).toBeNull(); // same namespace: not "inside"
  });
});
