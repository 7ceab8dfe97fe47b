import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listenerSockets } from './listener-sockets';

// proc(5) rows: 0100007F:0035 is 127.0.0.1:53 (little-endian words), 0101130AC:0035 would be 172.19.1.1.
const HEAD = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n';
const row = (local: string) => `   0: ${local} 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 12345 2 0000000000000000 0\n`;

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('listenerSockets', () => {
  it('reads the proxy pid\'s own table: 127.0.0.1:53 bound, 172.19.1.1:53 not', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-proc-'));
    mkdirSync(path.join(dir, '4242', 'net'), { recursive: true });
    writeFileSync(path.join(dir, '4242', 'net', 'udp'), HEAD + row('0100007F:0035'));
    const r = await listenerSockets([{ address: '127.0.0.1', port: 53 }, { address: '172.19.1.1', port: 53 }], 4242, dir);
    expect(r).toEqual([{ address: '127.0.0.1', port: 53, bound: true }, { address: '172.19.1.1', port: 53, bound: false }]);
  });
  it('a wildcard 0.0.0.0:53 socket covers every address; no pid: this namespace\'s /proc/net', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-proc-'));
    mkdirSync(path.join(dir, 'net'), { recursive: true });
    writeFileSync(path.join(dir, 'net', 'udp'), HEAD + row('00000000:0035'));
    expect((await listenerSockets([{ address: '172.19.1.1', port: 53 }], null, dir))[0]!.bound).toBe(true);
    expect((await listenerSockets([{ address: '172.19.1.1', port: 5353 }], 999, dir))[0]!.bound).toBe(false);
  });
  it('no readable table: unknown (null), never "unbound"', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'k2s-proc-'));
    expect((await listenerSockets([{ address: '127.0.0.1', port: 53 }], null, dir))[0]!.bound).toBeNull();
  });
});
