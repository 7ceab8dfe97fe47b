import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteExecWord, renderUnit } from './systemd-unit';
import { guardedArgv } from './root-dir-check';
import { hostileOrLong, hostileString, isClearError, outcome } from '../e2e/support/hostile-arbitraries';

/**
 * A unit file read the way systemd's config parser does (systemd.syntax(7)): `#`/`;` lines are
 * comments, `[Section]` headers, a line ending in an odd run of backslashes continues on the next
 * line (the backslash becomes a space), `Key=value` with spaces and tabs stripped around both.
 */
function parseUnit(text: string): { section: string; key: string; value: string }[] {
  const out: { section: string; key: string; value: string }[] = [];
  let section = '';
  let pending = '';
  for (const raw of text.split('\n')) {
    let line = pending + raw;
    pending = '';
    if (/(^|[^\\])(\\\\)*\\$/.test(line)) {
      pending = `${line.slice(0, -1)} `;
      continue;
    }
    line = line.replace(/^[ \t]+|[ \t]+$/g, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const sec = /^\[(.+)\]$/.exec(line);
    if (sec) { section = sec[1]!; continue; }
    const eq = line.indexOf('=');
    out.push({ section, key: line.slice(0, eq).replace(/[ \t]+$/, ''), value: line.slice(eq + 1).replace(/^[ \t]+/, '') });
  }
  return out;
}

/** `%%` → `%`; any other `%x` is a specifier systemd would expand, so the value would not be literal. */
function unescapeSpecifiers(v: string): string {
  if (/%[^%]/.test(v.replace(/%%/g, ''))) throw new Error(`unescaped specifier in ${v}`);
  return v.replace(/%%/g, '%');
}

/** ExecStart= words as systemd splits them: whitespace-separated, `"…"` with C escapes, then `%%`→`%` and `$$`→`$`. */
function execWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] === ' ' || line[i] === '\t') { i++; continue; }
    let w = '';
    if (line[i] === '"') {
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\') {
          const n = line[i + 1]!;
          w += ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[n] ?? n;
          i += 2;
        } else w += line[i++];
      }
      if (line[i] !== '"') throw new Error('unterminated quote');
      i++;
      if (i < line.length && line[i] !== ' ') throw new Error('quote not followed by a separator');
    } else {
      while (i < line.length && line[i] !== ' ' && line[i] !== '\t') {
        if (line[i] === '\\' || line[i] === '"') throw new Error('escape in an unquoted word');
        w += line[i++];
      }
      if (w === ';') throw new Error('a bare ; separates commands');
    }
    words.push(unescapeSpecifiers(w).replace(/\$\$/g, '$'));
  }
  return words;
}

const specArb = fc.record({
  argv: fc.tuple(fc.oneof(fc.constant('/opt/k2s/bin/dnsproxy'), hostileString(4).map((s) => `/${s}`), hostileString(3)), fc.array(hostileOrLong(), { maxLength: 5 })).map(([exe, rest]) => [exe, ...rest]),
  logFile: fc.oneof(fc.constant('/var/log/dnsproxy/dnsproxy.log'), hostileString(5).map((s) => `/${s}`), hostileOrLong()),
  description: fc.oneof(fc.constant('K2s DNS proxy'), hostileOrLong()),
});

describe('renderUnit on hostile specs', () => {
  it('throws a clear Error, or renders a unit whose settings parse back to exactly the inputs (no injected or swallowed setting)', () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const r = outcome(() => renderUnit(spec));
        if (!r.ok) {
          expect(isClearError(r.error), String(r.error)).toBe(true);
          return;
        }
        const settings = parseUnit(r.value);
        expect(settings.map((s) => `${s.section}/${s.key}`)).toEqual([
          'Unit/Description', 'Unit/Documentation', 'Unit/StartLimitIntervalSec', 'Unit/StartLimitBurst', 'Unit/Wants', 'Unit/After',
          'Service/Type', 'Service/ExecStart', 'Service/StandardOutput', 'Service/StandardError', 'Service/UMask', 'Service/Restart', 'Service/RestartSec',
          'Install/WantedBy',
        ]);
        const get = (k: string) => settings.find((s) => s.key === k)!.value;
        expect(unescapeSpecifiers(get('Description'))).toBe(spec.description);
        expect(execWords(get('ExecStart'))).toEqual(spec.argv);
        expect(unescapeSpecifiers(get('StandardOutput'))).toBe(`append:${spec.logFile}`);
        expect(unescapeSpecifiers(get('StandardError'))).toBe(`append:${spec.logFile}`);
      }),
      { numRuns: 500 },
    );
  });

  it('quoteExecWord: every word without control characters is one ExecStart word equal to the input', () => {
    fc.assert(
      fc.property(hostileOrLong(), (word) => {
        const r = outcome(() => quoteExecWord(word));
        if (!r.ok) {
          expect(word).toMatch(/[\u0000-\u001f\u007f]/);
          return;
        }
        expect(execWords(r.value)).toEqual([word]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('regressions found by the properties', () => {
  const ok = { argv: ['/opt/k2s/bin/dnsproxy'], logFile: '/var/log/dnsproxy/dnsproxy.log', description: 'K2s DNS proxy' };

  it('refuses a description ending in a backslash (it continued onto Wants= and swallowed it)', () => {
    expect(() => renderUnit({ ...ok, description: 'proxy\\' })).toThrow(
      'Description "proxy\\\\" ends with a backslash, which systemd reads as a line continuation; remove it.',
    );
    // An even run is two literal backslashes, no continuation.
    expect(parseUnit(renderUnit({ ...ok, description: 'proxy\\\\' }))[0]).toEqual({ section: 'Unit', key: 'Description', value: 'proxy\\\\' });
  });

  it('refuses a log file ending in a backslash (StandardOutput= swallowed StandardError=)', () => {
    expect(() => renderUnit({ ...ok, logFile: '/var/log/x\\' })).toThrow('Log file "/var/log/x\\\\" ends with a backslash');
  });

  it('refuses leading or trailing spaces that systemd would strip', () => {
    expect(() => renderUnit({ ...ok, description: ' K2s' })).toThrow('Description " K2s" starts or ends with a space or tab, which systemd strips; remove it.');
    expect(() => renderUnit({ ...ok, logFile: '/var/log/x.log ' })).toThrow('Log file "/var/log/x.log " starts or ends with a space or tab');
  });

  // The unit re-checks the directories root writes before every (re)start, in the process that then execs the proxy.
  it('renders guardDirs into ExecStart= whose words, read as systemd does, are exactly the guarded argv; no ExecStartPre=', () => {
    const dirs = ['/etc/k2s', '/run/k2s', '/var/log/dnsproxy', '/var/lib/k2s'];
    const lines = parseUnit(renderUnit({ ...ok, guardDirs: dirs }));
    const start = lines.filter((l) => l.section === 'Service' && l.key === 'ExecStart');
    expect(start).toHaveLength(1);
    expect(execWords(start[0]!.value)).toEqual(guardedArgv(dirs, ok.argv));
    expect(lines.some((l) => l.key === 'ExecStartPre')).toBe(false);
    expect(execWords(parseUnit(renderUnit(ok)).find((l) => l.key === 'ExecStart')!.value)).toEqual(ok.argv);
  });
});

