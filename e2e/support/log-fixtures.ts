/** Reads the captured engine logs in fixtures/logs/ (see its README) for tests. */
import { readFileSync } from 'node:fs';
import { parseLogLine } from '../../shared/log-line';
import type { LogLine } from '../../shared/types';

/** Names of the captured logs. */
export type LogFixture = 'dnsproxy-verbose' | 'dnsproxy-quiet' | 'dnsproxy-bind-failure' | 'dnsmasq-verbose' | 'dnsmasq-quiet' | 'dnsmasq-bind-failure';

/** The exact bytes of fixtures/logs/<name>.log (or another file there, e.g. `dnsproxy-version.txt`). */
export function fixtureText(file: string): string {
  return readFileSync(new URL(`../../fixtures/logs/${file}`, import.meta.url), 'utf8');
}

/** The raw lines of a captured log (no LF), blank ones kept. */
export function fixtureRawLines(name: LogFixture): string[] {
  return fixtureText(`${name}.log`).replace(/\n$/, '').split('\n');
}

/** A captured log parsed as the log source does (blank lines skipped), dnsmasq's year = the capture's (2026). */
export function fixtureLines(name: LogFixture): LogLine[] {
  return fixtureRawLines(name).filter((l) => l.trim() !== '').map((l) => parseLogLine(l, { year: 2026 }));
}
