import { describe, expect, it } from 'vitest';
import { stopLine } from './stop-line';

describe('the companion stop line: datagrams to the fill port are out of both packet counts (breaker10 L3)', () => {
  const rows = { unwritten: 0, rotations: 0 };
  const base = { dropped: 0, badLines: 0, forced: [] };

  it("other programs' datagrams to the fill port: packets and passed agree when nothing was lost", () => {
    // 1,216 proxy packets; the fill sent 65 (40 read); 1,818 foreign datagrams passed the filter and were read.
    const end = { ...base, counts: { frames: 1216 + 40 + 1818, notSegment: 0, notDns: 0, messages: 1216, rows: 608, fill: 40 + 1818, fillOthers: 1818 }, received: 1216 + 65 + 1818, filled: 65 };
    expect(stopLine(end, rows)).toBe('stopped: 608 rows, 1216 packets, 1216 passed the kernel filter, 0 dropped by the kernel, 0 parser lines skipped, 0 rows not written, 0 rotations, 0 queries emitted unanswered early (open-query table full), the last ring block filled with 65 datagrams to hand it over at once (40 read), 1818 datagrams of other programs to the fill port left out of the packet counts.');
  });

  it('without others and without a fill: the line as before', () => {
    const end = { ...base, counts: { frames: 10, notSegment: 0, notDns: 0, messages: 10, rows: 5 }, received: 10, filled: 0, forced: ['tcpdump'] };
    expect(stopLine(end, { unwritten: 2, rotations: 1 })).toBe('stopped: 5 rows, 10 packets, 10 passed the kernel filter, 0 dropped by the kernel, 0 parser lines skipped, 2 rows not written, 1 rotations, 0 queries emitted unanswered early (open-query table full); killed (did not end within 2 s): tcpdump.');
  });

  it("packets of the capture's own still in the kernel ring when the drain ended: said, they are not in the log", () => {
    const end = { ...base, counts: { frames: 3, notSegment: 0, notDns: 0, messages: 3, rows: 1 }, received: 60, filled: 0, leftInRing: 47 };
    expect(stopLine(end, rows)).toBe('stopped: 1 rows, 3 packets, 60 passed the kernel filter, 0 dropped by the kernel, 0 parser lines skipped, 0 rows not written, 0 rotations, 0 queries emitted unanswered early (open-query table full), 47 packets taken before the stop still in the kernel ring when the drain ended (not in the log).');
    expect(stopLine({ ...end, leftInRing: 0 }, rows)).not.toContain('kernel ring');
  });

  it('no counts from the parser or tcpdump: question marks', () => {
    expect(stopLine({ ...base, counts: null, received: null, dropped: null, filled: 0 }, rows)).toMatch(/^stopped: \? rows, \? packets, \? passed the kernel filter, \? dropped by the kernel,/);
  });
});
