/** Route filter choices follow the engine that wrote the log (real dnsproxy v0.83.1 / dnsmasq 2.90 lines). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from '../../../shared/log-line';
import { buildQueryLog } from '../../../shared/query-log';
import { routeOptions } from './route-options';

const rows = (file: string) =>
  buildQueryLog(readFileSync(new URL(`../../../fixtures/logs/${file}`, import.meta.url), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => parseLogLine(l, { year: 2026 })));

describe('route filter options', () => {
  it('AdGuard dnsproxy lines: no "dnsmasq config" route', () => {
    expect(routeOptions(rows('dnsproxy-verbose.log'), '')).toEqual(['cluster', 'upstream', 'cache']);
  });
  it('dnsmasq lines: its config route too; a selected route stays offered', () => {
    expect(routeOptions(rows('dnsmasq-verbose.log'), '')).toEqual(['cluster', 'upstream', 'cache', 'local']);
    expect(routeOptions([], 'local')).toEqual(['cluster', 'upstream', 'cache', 'local']);
  });
});
