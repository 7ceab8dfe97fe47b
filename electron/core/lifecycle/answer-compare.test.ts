import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../../../shared/types';
import { answerMismatch } from './answer-compare';

const r = (rcode: string, ...data: string[]): QueryResult => ({
  name: 'www.example.test',
  type: 'A',
  server: '192.0.2.53:53',
  transport: 'udp',
  rcode,
  answers: [{ name: 'www.example.test', type: 'CNAME', ttl: 30, data: 'edge.example.net' }, ...data.map((d) => ({ name: 'edge.example.net', type: 'A', ttl: 30, data: d }))],
  latencyMs: 1,
});

describe('answerMismatch (verify compares answer data)', () => {
  it('the hijack reproduction: same class, different address → mismatch naming both', () => {
    expect(answerMismatch(r('NOERROR', '93.184.215.14'), r('NOERROR', '10.0.0.4'))).toBe('93.184.215.14 directly but 10.0.0.4 through the proxy (no address in common)');
  });
  it('rotated or partly different address sets (CDN) still match', () => {
    expect(answerMismatch(r('NOERROR', '198.51.100.1', '198.51.100.2'), r('NOERROR', '198.51.100.2', '198.51.100.3'))).toBeNull();
  });
  it('different classes mismatch; equal NXDOMAIN matches', () => {
    expect(answerMismatch(r('NOERROR', '198.51.100.1'), { ...r('NXDOMAIN'), answers: [] })).toBe('answer directly but nxdomain through the proxy');
    expect(answerMismatch({ ...r('NXDOMAIN'), answers: [] }, { ...r('NXDOMAIN'), answers: [] })).toBeNull();
  });
});
