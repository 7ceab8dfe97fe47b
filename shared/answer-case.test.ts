import { describe, expect, it } from 'vitest';
import { answerCaseNote } from './answer-case';

describe('answerCaseNote', () => {
  it("names the health check's spelling when the capitals are its", () => {
    expect(answerCaseNote('kubernetes.default.svc.cluster.local', [{ name: 'KUBERNETES.DEFAULT.svc.cluster.local' }])).toBe(
      "KUBERNETES.DEFAULT.svc.cluster.local is the name asked (DNS names ignore case, RFC 4343), in the spelling of k2s-dns's health check: a cache answers with the spelling a name was first asked in.",
    );
  });

  it('other capitals: the general reasons', () => {
    expect(answerCaseNote('www.example.test', [{ name: 'wWw.ExaMple.TEST.' }])).toBe(
      'wWw.ExaMple.TEST is the name asked (DNS names ignore case, RFC 4343): a cache answers with the spelling a name was first asked in, and some resolvers ask in random capitals (DNS 0x20).',
    );
  });

  // break28: `k2s-dns query WWW.EXAMPLE.test --server proxy` answered from a cache as www.example.test
  // said the lower case was "in the spelling of k2s-dns's health check" (any name the marks leave as it is).
  it('a lower-case answer to a question in capitals: the general reasons, never a check of k2s-dns', () => {
    for (const asked of ['WWW.EXAMPLE.test', 'KUBERNETES.DEFAULT.svc.cluster.local', 'HOST', 'Www.Example.Test']) {
      expect(answerCaseNote(asked, [{ name: asked.toLowerCase() }])).toBe(
        `${asked.toLowerCase()} is the name asked (DNS names ignore case, RFC 4343): a cache answers with the spelling a name was first asked in, and some resolvers ask in random capitals (DNS 0x20).`,
      );
    }
  });

  it('no note for the same spelling (a trailing dot aside), another name (a CNAME target, a PTR), or no answer', () => {
    expect(answerCaseNote('Example.test', [{ name: 'Example.test.' }])).toBeNull();
    expect(answerCaseNote('www.example.test', [{ name: 'www.example.test' }, { name: 'CDN.example.net' }])).toBeNull();
    expect(answerCaseNote('10.0.0.1', [{ name: '1.0.0.10.in-addr.arpa' }])).toBeNull();
    expect(answerCaseNote('www.example.test', [])).toBeNull();
  });

  it('a CNAME chain whose first record has the capitals: one note, for it', () => {
    expect(answerCaseNote('www.example.test', [{ name: 'WWW.example.test' }, { name: 'cdn.example.net' }])).toMatch(/^WWW\.example\.test is the name asked /);
  });
});
