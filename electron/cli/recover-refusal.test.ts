import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCliName } from '../../shared/fix';
import type { ResultEvent } from '../../shared/lifecycle-events';
import { printEvent } from './print';
import { recoverNotRootEvent } from './recover-refusal';
import { main } from './main';

/** The lines printEvent prints for the refusal, as `k2s-dns recover [--force] [--json]` does. */
function printed(force: boolean, json: boolean, at: number): string[] {
  const lines: string[] = [];
  printEvent(recoverNotRootEvent(force, at), json, (s) => lines.push(s));
  return lines;
}

describe('k2s-dns recover as a user (new-user walk: no REFUSED head, no JSON, sudo only)', () => {
  afterEach(() => {
    setCliName('npx k2s-dns');
    vi.restoreAllMocks();
  });

  it('the head and code of start\'s and stop\'s refusals, sudo and `su -c`', () => {
    setCliName('k2s-dns');
    expect(printed(false, false, 0)).toEqual(["REFUSED [NOT_ROOT]: k2s-dns recover puts the saved resolver back: run it as root: `sudo k2s-dns recover`, or `su -c 'k2s-dns recover'` where sudo is not installed."]);
    expect(printed(true, false, 0)).toEqual(["REFUSED [NOT_ROOT]: k2s-dns recover puts the saved resolver back: run it as root: `sudo k2s-dns recover --force`, or `su -c 'k2s-dns recover --force'` where sudo is not installed."]);
  });

  it('with --json, one result object with exit status 3 and the code, its members in the order they always had', () => {
    expect(printed(false, true, 1_765_000_000_000)).toEqual([
      '{"type":"result","op":"recover","ok":false,"exitCode":3,"message":"k2s-dns recover puts the saved resolver back: run it as root: `sudo npx k2s-dns recover`, or `su -c \'npx k2s-dns recover\'` where sudo is not installed.","code":"NOT_ROOT","at":1765000000000}',
    ]);
  });

  it('the command prints a ResultEvent of operation recover through printEvent: --json is that event, the text its REFUSED line', async () => {
    // Never the real recovery: main must see a user. Checked before main runs.
    vi.spyOn(process, 'getuid').mockReturnValue(1000);
    expect(process.getuid!()).toBe(1000);
    vi.spyOn(Date, 'now').mockReturnValue(1_765_000_000_000);
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write);
    const event: ResultEvent = {
      type: 'result',
      op: 'recover',
      ok: false,
      exitCode: 3,
      message: "k2s-dns recover puts the saved resolver back: run it as root: `sudo npx k2s-dns recover --force`, or `su -c 'npx k2s-dns recover --force'` where sudo is not installed.",
      code: 'NOT_ROOT',
      at: 1_765_000_000_000,
    };
    expect(await main(['recover', '--force', '--json'])).toBe(3);
    expect(await main(['recover', '--force'])).toBe(3);
    vi.mocked(process.stdout.write).mockRestore();
    expect(out).toEqual([`${JSON.stringify(event)}\n`, `REFUSED [NOT_ROOT]: ${event.message}\n`]);
    expect(recoverNotRootEvent(true, 1_765_000_000_000)).toStrictEqual(event);
  }, 30_000);
});
