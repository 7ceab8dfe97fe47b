import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFakeProc } from './fake-proc';
import { outerPidOf, processIdentity, sameProcess } from './outer-pid';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

/** A fake /proc in this test's temp dir (fake-proc.ts). */
async function fakeProc(tree: Parameters<typeof writeFakeProc>[1]): Promise<string> {
  dir = dir || (await mkdtemp(join(tmpdir(), 'outer-pid-')));
  return writeFakeProc(dir, tree);
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

  it("finds the test host's systemd (a namespace further in) by its sandbox PID, not the host process with that number", async () => {
    // As try-package found it: the booted host's systemd is `NSpid: 11589 82 1`; 82 out here was unrelated.
    const proc = await fakeProc({
      100: [[100], [102]],
      102: [[102, 1], [11851, 11588]],
      11851: [[11851, 22], []],
      11588: [[11588, 81], [11589]],
      11589: [[11589, 82, 1], [11600]],
      11600: [[11600, 90, 22], []],
      82: [[82], []],
    });
    expect(await outerPidOf(100, 82, proc)).toBe(11589);
    // 22 inside the host's own namespace is not the sandbox's 22 (node), even when the walk meets it first.
    const walkHostFirst = await fakeProc({ 102: [[102, 1], [11588, 11851]] });
    expect(await outerPidOf(100, 22, walkHostFirst)).toBe(11851);
  });

  it('gives null when the ancestor is gone (no level to count from)', async () => {
    const proc = await fakeProc({ 101: [[101, 1], []] });
    expect(await outerPidOf(100, 1, proc)).toBeNull();
  });
});

describe('processIdentity and sameProcess', () => {
  it('reads the start time after the last parenthesis, the namespaces and NSpid', async () => {
    const proc = await fakeProc({ 11589: { nspid: [11589, 82, 1], kids: [], comm: 'sys) temd (x', start: 123456, pidNs: 'pid:[4026532900]', mntNs: 'mnt:[4026532898]' } });
    expect(await processIdentity(11589, proc)).toEqual({ pidNs: 'pid:[4026532900]', mntNs: 'mnt:[4026532898]', startTicks: '123456', nspid: [11589, 82, 1] });
    expect(await processIdentity(4242, proc)).toBeNull();
  });

  it('tells a PID reused by another process (other start time or namespace) from the one recorded', async () => {
    const proc = await fakeProc({ 11851: { nspid: [11851, 22], kids: [], start: 5000, pidNs: 'pid:[4026532800]' } });
    const id = (await processIdentity(11851, proc))!;
    expect(await sameProcess(11851, id, proc)).toBe(true);
    await fakeProc({ 11851: { nspid: [11851, 22], kids: [], start: 9000, pidNs: 'pid:[4026532800]' } });
    expect(await sameProcess(11851, id, proc)).toBe(false);
    await fakeProc({ 11851: { nspid: [11851], kids: [], start: 5000 } });
    expect(await sameProcess(11851, id, proc)).toBe(false);
    await rm(join(proc, '11851'), { recursive: true });
    expect(await sameProcess(11851, id, proc)).toBe(false);
  });
});
