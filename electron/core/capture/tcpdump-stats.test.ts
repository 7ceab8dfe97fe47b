import { describe, expect, it } from 'vitest';
import { tcpdumpStatsLine } from './tcpdump-stats';

describe("tcpdump's SIGUSR1 counts", () => {
  it('reads the line tcpdump 4.99 prints (singular and plural), null for its other lines', () => {
    expect(tcpdumpStatsLine('tcpdump: 0 packets captured, 3 packets received by filter, 0 packets dropped by kernel')).toEqual({ captured: 0, received: 3, dropped: 0 });
    expect(tcpdumpStatsLine('tcpdump: 1 packet captured, 1 packet received by filter, 12 packets dropped by kernel')).toEqual({ captured: 1, received: 1, dropped: 12 });
    for (const other of ['tcpdump: listening on any, link-type LINUX_SLL2 (Linux cooked v2), snapshot length 4200 bytes', '3 packets captured', '5 packets received by filter', 'tcpdump: data link type LINUX_SLL2', '']) {
      expect(tcpdumpStatsLine(other)).toBeNull();
    }
  });
});
