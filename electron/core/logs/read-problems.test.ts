import { describe, expect, it } from 'vitest';
import { createReadProblemReporter } from './read-problems';
import { logReadError } from './tail';

const LOG = '/var/log/dnsproxy/dnsproxy.log';
const eacces = () => logReadError(LOG, Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
const eisdir = () => logReadError(LOG, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));

describe('createReadProblemReporter', () => {
  it('says a cause once however often it is met (walk 20: five adm lines in ~7 s), again when it changes or after a read worked', () => {
    const lines: string[] = [];
    const r = createReadProblemReporter((l) => lines.push(l));
    for (let i = 0; i < 5; i++) r.problem(LOG, eacces());
    expect(lines).toEqual([
      `k2s-dns logs: Cannot read the proxy log ${LOG}: permission denied (it is readable by root and the group adm only). Add your user to adm (\`sudo usermod -aG adm $USER\`, then log out and in again), or read it as root (\`sudo tail -f ${LOG}\`).`,
    ]);
    r.problem(LOG, eisdir());
    r.problem(LOG, eisdir());
    expect(lines.slice(1)).toEqual([`k2s-dns logs: Cannot read the proxy log ${LOG}: it is a directory; point the log path at the proxy's log file.`]);
    r.problem(LOG, eacces());
    expect(lines).toHaveLength(3);
    // Fixed (the user joined adm and the file opened), then broken again: said again, once.
    r.readable(LOG);
    r.problem(LOG, eacces());
    r.problem(LOG, eacces());
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(lines[0]);
  });

  it('keeps each path apart', () => {
    const lines: string[] = [];
    const r = createReadProblemReporter((l) => lines.push(l));
    r.problem(LOG, eacces());
    r.problem('/other.log', logReadError('/other.log', Object.assign(new Error('x'), { code: 'EACCES' })));
    r.readable('/other.log');
    r.problem(LOG, eacces());
    expect(lines.map((l) => l.split(':')[1])).toEqual([` Cannot read the proxy log ${LOG}`, ' Cannot read the proxy log /other.log']);
  });
});
