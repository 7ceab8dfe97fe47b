/**
 * The companion's record of its tcpdump and parser (children-file.ts): its text, its parse, and
 * the write with the start times read from /proc (a fake procDir).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_CHILDREN_FILE, childrenFileText, parseChildrenFile, recordChildren } from './children-file';
import { createHostFs } from '../host/host-fs-node';

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

describe('the capture companion\'s record of its children', () => {
  it('one `PID STARTTIME ROLE` line each, read back as written; a line of anything else is left out', () => {
    const text = childrenFileText([
      { pid: 4242, startTime: '7017995', role: 'tcpdump' },
      { pid: 4243, startTime: '7017996', role: 'parser' },
    ]);
    expect(text).toBe('4242 7017995 tcpdump\n4243 7017996 parser\n');
    expect(parseChildrenFile(text)).toEqual([
      { pid: 4242, startTime: '7017995', role: 'tcpdump' },
      { pid: 4243, startTime: '7017996', role: 'parser' },
    ]);
    expect(parseChildrenFile('0 1 tcpdump\n-1 5 parser\n12 x parser\n13 5 chrt\n14 5 parser extra\n 15 5 parser\n16 5 parser\n')).toEqual([{ pid: 16, startTime: '5', role: 'parser' }]);
    expect(parseChildrenFile('')).toEqual([]);
  });

  it('recordChildren writes each child with its /proc start time (field 22), 0644, and leaves out one already gone', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'children-file-'));
    const procDir = path.join(root, 'proc');
    await mkdir(path.join(procDir, '200'), { recursive: true });
    // comm with a space and a parenthesis: the fields are counted after the last ')'.
    await writeFile(path.join(procDir, '200', 'stat'), '200 (tcp dump)) S 100 100 100 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 123456 0 0\n');
    await mkdir(path.join(root, 'host'));
    const fs = createHostFs(path.join(root, 'host'));
    // The companion made its run dir before it spawns anything (capture-main.ts).
    await fs.mkdirp('/run/k2s', 0o755);
    await recordChildren(fs, [{ pid: 200, role: 'tcpdump' }, { pid: 201, role: 'parser' }], procDir);
    const file = fs.real(CAPTURE_CHILDREN_FILE);
    expect(await readFile(file, 'utf8')).toBe('200 123456 tcpdump\n');
    expect((await fs.lstat(CAPTURE_CHILDREN_FILE))!.mode & 0o777).toBe(0o644);
  });
});
