/**
 * The capture parser's rows, byte for byte, over a seeded corpus of pcap streams
 * (e2e/support/pcap-corpus.ts: exchanges over UDP/TCP, IPv4/IPv6, five link types, mutated
 * frames, random chunking): pinned as the SHA-256 of the lines the parser process writes
 * (rows-main.ts, row-line.ts) plus each stream's counts, failure and throw. The hash was taken with the
 * parser before its hot path was rewritten (views instead of copies, no text per packet), so a
 * change to any row, count or error shows here; the coverage figures make sure the corpus
 * still holds what the hash is meant to pin.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { corpusStream } from '../../../e2e/support/pcap-corpus';
import type { CapturedQuery } from './pairing';
import { PcapRows } from './pcap-rows';
import { rowLine } from './row-line';

/** Stream `seed`'s output as text: the row lines, then a line of counts and failure (or the throw). */
function outputOf(seed: number, seen: CapturedQuery[]): string {
  const s = corpusStream(seed);
  let out = '';
  const p = new PcapRows({
    listeners: s.listeners,
    // Now and then a fill port, a short expiry and a tiny open-query cap, so those paths are pinned too.
    fillPort: seed % 5 === 0 ? 50001 : undefined,
    expireUs: seed % 3 === 0 ? 2_000_000 : undefined,
    openMax: seed % 4 === 0 ? 3 : undefined,
    onRow: (r) => {
      seen.push(r);
      out += rowLine(r, null);
    },
  });
  try {
    for (const c of s.chunks) {
      p.push(c);
      if (p.failed) break;
    }
    p.end();
  } catch (e) {
    out += `throw ${(e as Error).message}\n`;
  }
  return `${out}${JSON.stringify({ counts: p.counts, failed: p.failed })}\n`;
}

describe('capture parser rows over a seeded corpus', () => {
  it('are byte for byte those of the parser before the hot-path rewrite (3000 streams)', () => {
    const h = createHash('sha256');
    const rows: CapturedQuery[] = [];
    let lines = 0;
    let thrown = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const out = outputOf(seed, rows);
      if (out.includes('\nthrow ') || out.startsWith('throw ')) thrown++;
      lines += out.split('\n').length - 1;
      h.update(out);
    }
    // What the corpus holds: answered rows, rows with an upstream, IPv6 clients, TCP, retries, answers; and a few non-pcap streams (the only throw).
    const count = (f: (r: CapturedQuery) => boolean) => rows.filter(f).length;
    expect({ lines, rows: rows.length, answered: count((r) => r.rcode !== null), upstream: count((r) => r.upstream !== null), v6: count((r) => r.client.startsWith('[')), tcp: count((r) => r.proto === 'tcp'), retries: count((r) => r.retries > 0), answers: count((r) => r.answers.length > 0), thrown }).toEqual(EXPECTED_SHAPE);
    expect(h.digest('hex')).toBe(EXPECTED_SHA256);
    // With a search list too, each line is JSON.stringify of the row with it (what the companion wrote before).
    const search = ['default.svc.cluster.local', 'x"y\\z', '\u0001caf\u00e9'];
    expect(rows.filter((r) => rowLine(r, search) !== `${JSON.stringify({ ...r, search })}\n`)).toEqual([]);
  });
});

const EXPECTED_SHAPE = { lines: 17148, rows: 14087, answered: 8584, upstream: 2676, v6: 5109, tcp: 2477, retries: 1981, answers: 5612, thrown: 61 };
const EXPECTED_SHA256 = 'dbbeb5616b692510837a8ff6139cda91209bb1e1ef532163c7aa121e78c5ed4a';
