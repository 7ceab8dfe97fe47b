/**
 * Code spans written and read by one rule (code-span.ts, CommonMark 0.31.2 6.1): a command
 * holding a backtick — a shell-quoted kubeconfig path with one in its name — stays one span
 * (walk finding: status's single-backtick span ended inside the path).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { codeSpan, splitCodeSpans } from './code-span';
import { asRootWays, cliCommand, setCliKubeconfig } from './fix';

afterEach(() => setCliKubeconfig(null));

describe('codeSpan', () => {
  it('one backtick around a command without any; a longer fence around one with backticks, padded where it begins or ends with one', () => {
    expect(codeSpan('sudo npx k2s-dns stop')).toBe('`sudo npx k2s-dns stop`');
    expect(codeSpan("--kubeconfig '/tmp/a`b'")).toBe("``--kubeconfig '/tmp/a`b'``");
    expect(codeSpan('a ``` b')).toBe('````a ``` b````');
    expect(codeSpan('`x')).toBe('`` `x ``');
    expect(codeSpan(' x ')).toBe('`  x  `');
  });

  it('splitCodeSpans reads back exactly what codeSpan wrote, between prose', () => {
    for (const content of ["sudo npx k2s-dns start --kubeconfig '/tmp/a`b/config'", '`x', 'x`', ' x ', 'a ``` b', 'ls']) {
      expect(splitCodeSpans(`run ${codeSpan(content)} now`)).toEqual([{ code: false, text: 'run ' }, { code: true, text: content }, { code: false, text: ' now' }]);
    }
  });

  it('CommonMark: a run closes only at a run of the same length; an opener without one is prose', () => {
    expect(splitCodeSpans('it`s')).toEqual([{ code: false, text: 'it`s' }]);
    expect(splitCodeSpans('a `b` c `d')).toEqual([{ code: false, text: 'a ' }, { code: true, text: 'b' }, { code: false, text: ' c `d' }]);
    expect(splitCodeSpans('``a`b`` and `c`')).toEqual([{ code: true, text: 'a`b' }, { code: false, text: ' and ' }, { code: true, text: 'c' }]);
    expect(splitCodeSpans('``x` y')).toEqual([{ code: false, text: '``x` y' }]);
  });
});

describe("a kubeconfig path with a backtick in the CLI's start lines", () => {
  it('asRootWays fences both the sudo line and the su -c line so each stays one span', () => {
    setCliKubeconfig('/tmp/a`b/config');
    const start = cliCommand('start', true);
    expect(start).toBe("sudo npx k2s-dns start --kubeconfig '/tmp/a`b/config'");
    const ways = asRootWays('start');
    expect(ways).toBe("as root: ``sudo npx k2s-dns start --kubeconfig '/tmp/a`b/config'``, or ``su -c 'npx k2s-dns start --kubeconfig '\\''/tmp/a`b/config'\\'''`` where sudo is not installed");
    expect(splitCodeSpans(ways).filter((p) => p.code).map((p) => p.text)).toEqual([start, `su -c 'npx k2s-dns start --kubeconfig '\\''/tmp/a\`b/config'\\'''`]);
  });
});
