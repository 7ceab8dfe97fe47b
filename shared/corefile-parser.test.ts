import { describe, expect, it } from 'vitest';
import { parseCorefile, tokenizeCorefile } from './corefile-parser';

describe('tokenizeCorefile', () => {
  it('splits on whitespace, drops # comments at token start, keeps quoted strings whole', () => {
    const toks = tokenizeCorefile('.:53 { # comment\n  template IN A "a b\\"c" foo#bar\n}\n');
    expect(toks.map((t) => [t.text, t.line, t.quoted, t.nl])).toEqual([
      ['.:53', 1, false, true],
      ['{', 1, false, false],
      ['template', 2, false, true],
      ['IN', 2, false, false],
      ['A', 2, false, false],
      ['a b"c', 2, true, false],
      ['foo#bar', 2, false, false],
      ['}', 3, false, true],
    ]);
  });

  it('throws on an unclosed quote', () => {
    expect(() => tokenizeCorefile('.:53 {\n  hosts "x\n')).toThrow('Corefile line 2: a quoted string is never closed');
  });
});

describe('parseCorefile', () => {
  it('builds server blocks with nested directives, one-line blocks and comma keys', () => {
    const parsed = parseCorefile('a.example, b.example:53 {\n  health { lameduck 5s }\n  forward . 10.0.0.1 {\n    max_concurrent 1000\n  }\n}\n');
    expect(parsed.serverBlocks).toHaveLength(1);
    const block = parsed.serverBlocks[0]!;
    expect(block.keys).toEqual(['a.example', 'b.example:53']);
    expect(block.directives.map((d) => [d.name, d.args, d.block?.map((x) => [x.name, x.args]) ?? null])).toEqual([
      ['health', [], [['lameduck', ['5s']]]],
      ['forward', ['.', '10.0.0.1'], [['max_concurrent', ['1000']]]],
    ]);
  });

  it('expands snippets in place and keeps line structure', () => {
    const parsed = parseCorefile('(common) {\n  errors\n  cache 30\n}\n.:53 {\n  import common\n  kubernetes cluster.local\n}\n');
    expect(parsed.serverBlocks.map((b) => b.keys)).toEqual([['.:53']]);
    expect(parsed.serverBlocks[0]!.directives.map((d) => [d.name, d.args])).toEqual([
      ['errors', []],
      ['cache', ['30']],
      ['kubernetes', ['cluster.local']],
    ]);
    expect(parsed.warnings).toEqual([]);
  });

  it('refuses import cycles', () => {
    expect(() => parseCorefile('(a) {\n  import a\n}\n.:53 {\n  import a\n}\n')).toThrow('imports nest deeper than 10');
  });

  it('reads the single-block form without braces', () => {
    const parsed = parseCorefile('.:53\nkubernetes cluster.local\nforward . 1.1.1.1\n');
    expect(parsed.serverBlocks[0]!.keys).toEqual(['.:53']);
    expect(parsed.serverBlocks[0]!.directives.map((d) => d.name)).toEqual(['kubernetes', 'forward']);
  });

  it('rejects a stray closing brace', () => {
    expect(() => parseCorefile('}\n')).toThrow('Corefile line 1: "}" closes nothing');
  });
});
