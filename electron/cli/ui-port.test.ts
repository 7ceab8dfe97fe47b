import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { isAddressInUse, portInUseLine, portInUseNow } from './ui-port';

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
}

describe('k2s-dns ui --port PORT with the port taken (new-user walk: it printed `listen EADDRINUSE: …`)', () => {
  it("says the README's code, the holder and the way out", () => {
    expect(portInUseLine('ui', 8080, { pid: 812, command: 'python3 -m http.server 8080' })).toBe(
      'k2s-dns ui failed [PORT_IN_USE]: 127.0.0.1:8080 is in use by python3 -m http.server 8080 (PID 812); pick another --port, or leave --port out for a free one.',
    );
    expect(portInUseLine('app', 8080, null)).toBe('k2s-dns app failed [PORT_IN_USE]: 127.0.0.1:8080 is in use by another program; pick another --port, or leave --port out for a free one.');
    // A holder's command line is escaped and bounded.
    expect(portInUseLine('ui', 1, { pid: 2, command: `x\u001b[2J${'y'.repeat(400)}` })).toMatch(/ by x\\x1b\[2Jy{151}… \(PID 2\); /);
  });

  it('a real taken port: Node reports EADDRINUSE, and the holder found is this process', async () => {
    const held = await listen(0);
    const port = (held.address() as net.AddressInfo).port;
    try {
      const err = await listen(port).then((s) => (s.close(), null), (e: unknown) => e);
      expect(isAddressInUse(err)).toBe(true);
      expect(isAddressInUse(new Error('other'))).toBe(false);
      const cmdline = readFileSync('/proc/self/cmdline', 'utf8').split('\0').filter((a) => a !== '').join(' ');
      const shown = cmdline.length > 160 ? `${cmdline.slice(0, 159)}…` : cmdline;
      expect(await portInUseNow('ui', port)).toBe(`k2s-dns ui failed [PORT_IN_USE]: 127.0.0.1:${port} is in use by ${shown} (PID ${process.pid}); pick another --port, or leave --port out for a free one.`);
    } finally {
      await new Promise((r) => held.close(r));
    }
  });
});
