import { describe, expect, it } from 'vitest';
import { logStartText } from './log-start';

describe('logStartText: names only the log files that exist', () => {
  it('before the first rotation there is no .1 to name', () => {
    expect(logStartText(['/var/log/dnsproxy/dnsproxy.log'])).toBe('Start of the log: the first line of dnsproxy.log (no rotated copy yet).');
  });
  it('after a rotation the oldest line is in .1', () => {
    expect(logStartText(['/var/log/dnsproxy/dnsproxy.log.1', '/var/log/dnsproxy/dnsproxy.log'])).toBe('Start of the log: the first line of dnsproxy.log.1, the rotated copy before dnsproxy.log.');
  });
  it('files not known: no file named', () => {
    expect(logStartText(null)).toBe('Start of the log.');
    expect(logStartText([], 'the exact query log')).toBe('Start of the exact query log.');
  });
});
