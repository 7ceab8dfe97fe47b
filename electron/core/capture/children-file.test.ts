/**
 * The companion's record of its tcpdump and parser (children-file.ts): its text, its parse, and
 * the write with the start times read from /proc (a fake procDir).
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { CAPTURE_CHILDREN_FILE, childrenFileText, cksumOf, forgetChildren, parseChildrenFile, recordChildren } from './children-file';
import { createHostFs } from '../host/host-fs-node';

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

describe('the capture companion\'s record of its children', () => {
  it('one `PID STARTTIME ROLE COMPANION CRC LENGTH` line each, read back as written; a line of anything else, or cut, is left out', () => {
    const text = childrenFileText([
      { pid: 4242, startTime: '7017995', role: 'tcpdump', companion: 4240, cmdlineSum: '3015617425 6' },
      { pid: 4243, startTime: '7017996', role: 'parser', companion: 4240, cmdlineSum: '1 2' },
    ]);
    expect(text).toBe('4242 7017995 tcpdump 4240 3015617425 6\n4243 7017996 parser 4240 1 2\n');
    expect(parseChildrenFile(text)).toEqual([
      { pid: 4242, startTime: '7017995', role: 'tcpdump', companion: 4240, cmdlineSum: '3015617425 6' },
      { pid: 4243, startTime: '7017996', role: 'parser', companion: 4240, cmdlineSum: '1 2' },
    ]);
    // The old three-field form, a zero length, a zero companion, garbage, extra words, and a last line without its newline (cut).
    expect(parseChildrenFile('16 5 parser\n0 1 tcpdump 9 1 1\n12 x parser 9 1 1\n13 5 chrt 9 1 1\n14 5 parser 9 1 1 extra\n 15 5 parser 9 1 1\n17 5 parser 9 1 0\n18 5 parser 0 1 1\n\u0000\xff garbage\n19 5 parser 9 1 1\n20 5 tcpdump 9 1 1')).toEqual([
      { pid: 19, startTime: '5', role: 'parser', companion: 9, cmdlineSum: '1 1' },
    ]);
    expect(parseChildrenFile('')).toEqual([]);
  });

  it('cksumOf is what POSIX cksum prints for the same bytes on its stdin', () => {
    const samples = [Buffer.alloc(0), Buffer.from('a'), Buffer.from('/usr/bin/tcpdump\0-w\0-\0-Z\0nobody\0'), Buffer.alloc(300, 0xff), Buffer.alloc(70000, 7)];
    expect(cksumOf(Buffer.alloc(0))).toBe('4294967295 0');
    for (const b of samples) expect(cksumOf(b)).toBe(execFileSync('cksum', { input: b }).toString('utf8').trim());
  });

  it('recordChildren writes each child with its /proc start time (field 22), its companion and its cmdline\'s cksum, 0644; one already gone, or with an argv not its role\'s, is left out', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'children-file-'));
    const procDir = path.join(root, 'proc');
    const tcpdump = '/usr/bin/tcpdump\0-i\0any\0-w\0-\0-Z\0nobody\0';
    const entry = async (pid: number, stat: string, cmdline: string) => {
      await mkdir(path.join(procDir, String(pid)), { recursive: true });
      await writeFile(path.join(procDir, String(pid), 'stat'), stat);
      await writeFile(path.join(procDir, String(pid), 'cmdline'), cmdline);
    };
    // comm with a space and a parenthesis: the fields are counted after the last ')'.
    await entry(200, '200 (tcp dump)) S 100 100 100 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 123456 0 0\n', tcpdump);
    await entry(202, '202 (node) S 100 100 100 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 123458 0 0\n', '/usr/bin/node\0/srv/run/capture-rows.cjs\0');
    // A parser pid whose argv is not the parser's (sleep 600): not recorded.
    await entry(203, '203 (sleep) S 100 100 100 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 123459 0 0\n', 'sleep\x00600\0');
    await mkdir(path.join(root, 'host'));
    const fs = createHostFs(path.join(root, 'host'));
    // The companion made its run dir before it spawns anything (capture-main.ts).
    await fs.mkdirp('/run/k2s', 0o755);
    await recordChildren(fs, [{ pid: 200, role: 'tcpdump' }, { pid: 201, role: 'parser' }, { pid: 202, role: 'parser' }, { pid: 203, role: 'parser' }], procDir, '/srv/run/capture-rows.cjs', 100);
    const file = fs.real(CAPTURE_CHILDREN_FILE);
    const sum = (s: string) => execFileSync('cksum', { input: Buffer.from(s) }).toString('utf8').trim();
    expect(await readFile(file, 'utf8')).toBe(`200 123456 tcpdump 100 ${sum(tcpdump)}\n202 123458 parser 100 ${sum('/usr/bin/node\0/srv/run/capture-rows.cjs\0')}\n`);
    expect((await fs.lstat(CAPTURE_CHILDREN_FILE))!.mode & 0o777).toBe(0o644);
  });

  it('forgetChildren removes the companion\'s own record once its children ended; a record naming another companion, or a symlink, is left', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'k2s-children-forget-'));
    const fs = createHostFs(root);
    const file = path.join(root, CAPTURE_CHILDREN_FILE);
    await mkdir(path.dirname(file), { recursive: true });
    const own = '4242 7017995 tcpdump 4240 3015617425 6\n4243 7017996 parser 4240 1 2\n';
    await writeFile(file, own);
    await forgetChildren(fs, 4240);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    // Another companion's pair (a record this companion did not write): its readers decide.
    const other = '4252 7017999 tcpdump 4250 3015617425 6\n';
    await writeFile(file, other);
    await forgetChildren(fs, 4240);
    expect(await readFile(file, 'utf8')).toBe(other);
    await rm(file);
    // A link planted at its name: not followed, not removed.
    await writeFile(path.join(root, 'elsewhere'), own);
    await symlink(path.join(root, 'elsewhere'), file);
    await forgetChildren(fs, 4240);
    expect(await readFile(file, 'utf8')).toBe(own);
    // None written: nothing to do, no error.
    await rm(file);
    await expect(forgetChildren(fs, 4240)).resolves.toBeUndefined();
  });
});
