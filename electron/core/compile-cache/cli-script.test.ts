import { describe, expect, it } from 'vitest';
import { CLI_SCRIPT, cliScriptFor } from './cli-script';

const base = 'file:///usr/lib/k2s-dns/dist/k2s-dns.mjs';
const script = `/usr/lib/k2s-dns/dist/${CLI_SCRIPT}`;
const there = (p: string) => p === script;

describe('cliScriptFor', () => {
  it('runs every command but the window\'s from the script next to the entry chunk', () => {
    for (const verb of ['start', 'stop', 'status', 'capture-watch', 'follow-watch', 'zones', 'typo']) {
      expect(cliScriptFor({ verb, baseUrl: base, env: {}, execArgv: [], exists: there })).toBe(script);
    }
    expect(CLI_SCRIPT).toBe('k2s-dns-cli.cjs');
  });

  it('the window\'s verbs run from the chunks (their assets are found from there)', () => {
    for (const verb of ['ui', 'app']) expect(cliScriptFor({ verb, baseUrl: base, env: {}, execArgv: [], exists: there })).toBeNull();
  });

  it('with source maps on (K2S_DNS_DEBUG=1, --enable-source-maps) the chunks run: only they have maps to name the .ts lines', () => {
    expect(cliScriptFor({ verb: 'start', baseUrl: base, env: { K2S_DNS_DEBUG: '1' }, execArgv: [], exists: there })).toBeNull();
    expect(cliScriptFor({ verb: 'start', baseUrl: base, env: {}, execArgv: ['--enable-source-maps'], exists: there })).toBeNull();
    expect(cliScriptFor({ verb: 'start', baseUrl: base, env: { K2S_DNS_DEBUG: '0' }, execArgv: [], exists: there })).toBe(script);
  });

  it('no script there (the sources through tsx, an old build): the chunks run', () => {
    expect(cliScriptFor({ verb: 'start', baseUrl: base, env: {}, execArgv: [], exists: () => false })).toBeNull();
    expect(cliScriptFor({ verb: 'start', baseUrl: 'file:///repo/electron/cli/entry.ts', env: {}, execArgv: [], exists: there })).toBeNull();
  });
});
