import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { FILL_BYTES, FILL_PACKETS, openBlockFill, RING_BLOCK_BYTES } from './block-fill';
import { SNAP_BYTES } from './tcpdump-argv';

describe('block fill (the stop hands the open ring block over at once)', () => {
  it('one burst is more snap-length copies than a 256 KiB block holds', () => {
    expect(FILL_BYTES).toBe(SNAP_BYTES);
    expect(FILL_PACKETS).toBe(65);
    expect(FILL_PACKETS * SNAP_BYTES).toBeGreaterThan(RING_BLOCK_BYTES);
  });

  it('holds a port on 127.0.0.1 (no one else can bind it) and sends the whole burst to itself', async () => {
    const fill = await openBlockFill();
    expect(fill).not.toBeNull();
    try {
      expect(fill!.port).toBeGreaterThan(0);
      const other = createSocket('udp4');
      const bindErr = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
        other.once('error', (e) => resolve(e));
        other.bind({ address: '127.0.0.1', port: fill!.port }, () => resolve(null));
      });
      other.close();
      expect(bindErr?.code).toBe('EADDRINUSE');
      expect(await fill!.fill()).toBe(FILL_PACKETS);
    } finally {
      fill!.close();
    }
  });
});
