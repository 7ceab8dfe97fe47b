import { describe, expect, it } from 'vitest';
import { ERROR_CODES, EXIT, httpStatusFor, isErrorCode } from './error-codes';

const EXIT_STATUSES = new Set<number>(Object.values(EXIT));

describe('the error-code catalogue', () => {
  it.each(Object.entries(ERROR_CODES))('%s has an exit status, an HTTP status and a one-line meaning', (code, e) => {
    expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    expect(e.exit.length).toBeGreaterThan(0);
    for (const x of e.exit) expect(EXIT_STATUSES).toContain(x);
    expect(e.http === 200 || (e.http >= 400 && e.http <= 599)).toBe(true);
    expect(e.meaning).toMatch(/^\S.{9,199}$/);
    expect(e.meaning).not.toContain('\n');
  });

  it('answers an error envelope with the catalogue status, 200 for a shown state, and 500 for result-only or unknown codes', () => {
    expect(httpStatusFor('INVALID_INPUT')).toBe(400);
    expect(httpStatusFor('UNKNOWN_CALL')).toBe(404);
    expect(httpStatusFor('BUSY')).toBe(409);
    // States the window shows while they last (walk 6 L9: a 504 in the console while the API was down): 200.
    expect(httpStatusFor('NO_KUBECONFIG')).toBe(200);
    expect(httpStatusFor('CLUSTER_UNREACHABLE')).toBe(200);
    expect(httpStatusFor('CLUSTER_UNAUTHORIZED')).toBe(200);
    expect(httpStatusFor('CLUSTER_BAD_RESPONSE')).toBe(502);
    expect(httpStatusFor('PORT_IN_USE')).toBe(500);
    expect(httpStatusFor('SOMETHING_ELSE')).toBe(500);
    expect(httpStatusFor('__proto__')).toBe(500);
  });

  it('spells one condition once: no kebab-case or lower-case twin of a code', () => {
    const squash = (c: string) => c.toLowerCase().replace(/[-_]/g, '');
    const seen = Object.keys(ERROR_CODES).map(squash);
    expect(new Set(seen).size).toBe(seen.length);
    expect(isErrorCode('no-kubeconfig')).toBe(false);
    expect(isErrorCode('NO_KUBECONFIG')).toBe(true);
  });
});
