import { describe, expect, it } from 'vitest';
import { exitReasonFromLog, jobTypeOf, isAutoRestart, parseUnitRunState } from './systemd-show';

// `systemctl show` of k2s-dnsproxy on Debian 13 (systemd 257) while port 53 was held by another program.
const AUTO_RESTART = 'ActiveState=activating\nSubState=auto-restart\nNRestarts=7\nExecMainCode=1\nExecMainStatus=1\nMainPID=0\nResult=exit-code\n';
// The proxy's log lines of that run (AdGuard dnsproxy v0.83.1).
const LOG = [
  '2026/12/01 16:08:50.182738 INFO creating tcp server socket prefix=dnsproxy addr=127.0.0.1:53',
  '2026/12/01 16:08:50.183437 WARN binding prefix=dnsproxy attempt=1 err="listen tcp 127.0.0.1:53: bind: address already in use"',
  '2026/12/01 16:08:50.190271 ERROR running dnsproxy err="starting dnsproxy: configuring listeners: listening on tcp addr 127.0.0.1:53: listening to tcp socket: listen tcp 127.0.0.1:53: bind: address already in use"',
  '',
].join('\n');

describe('systemctl show of the proxy unit', () => {
  it("systemd's own restart: activating/auto-restart, attempt count, how the last run ended", () => {
    const s = parseUnitRunState(AUTO_RESTART);
    expect(s).toEqual({ activeState: 'activating', subState: 'auto-restart', restarts: 7, lastExit: 'exited with status 1', mainPid: null, result: 'exit-code' });
    expect(isAutoRestart(s)).toBe(true);
  });

  it('a running unit after a kill -9 is not restarting; the kill is named by signal', () => {
    const s = parseUnitRunState('ActiveState=active\nSubState=running\nNRestarts=1\nExecMainCode=2\nExecMainStatus=9\nMainPID=812\nResult=success\n');
    expect(s.lastExit).toBe('killed by signal KILL');
    expect(s.mainPid).toBe(812);
    expect(isAutoRestart(s)).toBe(false);
    expect(parseUnitRunState('ActiveState=failed\nSubState=failed\nNRestarts=10\nExecMainCode=1\nExecMainStatus=1\nMainPID=0\nResult=start-limit-hit\n')).toMatchObject({ result: 'start-limit-hit', restarts: 10 });
    expect(parseUnitRunState('').lastExit).toBeNull();
  });

  it("the exit reason is the proxy's last error line, not its warnings", () => {
    expect(exitReasonFromLog(LOG)).toBe(LOG.split('\n')[2]);
    expect(exitReasonFromLog(`ERROR ${'x'.repeat(400)}`)).toHaveLength(300);
    expect(exitReasonFromLog('dnsmasq[812]: failed to create listening socket for 172.19.1.1: Cannot assign requested address\ndnsmasq[812]: FAILED to start up\n')).toBe('dnsmasq[812]: failed to create listening socket for 172.19.1.1: Cannot assign requested address');
    expect(exitReasonFromLog('2026/12/01 16:08:50.182738 INFO listening to udp addr=127.0.0.1:53\n')).toBeNull();
  });
});

describe('systemctl list-jobs --no-legend (jobTypeOf)', () => {
  const U = 'k2s-dnsproxy.service';
  it("the unit's job type, waiting or running; another unit's job or no job is null", () => {
    expect(jobTypeOf('1714 k2s-dnsproxy.service         stop    waiting\n1715 k2s-dnsproxy-capture.service stop    running\n', U)).toBe('stop');
    expect(jobTypeOf('  88 k2s-dnsproxy.service stop running\n', U)).toBe('stop');
    expect(jobTypeOf('1714 k2s-dnsproxy.service restart waiting\n', U)).toBe('restart');
    expect(jobTypeOf('1714 k2s-dnsproxy.service start running\n', U)).toBe('start');
    expect(jobTypeOf('1715 k2s-dnsproxy-capture.service stop running\n', U)).toBeNull();
    expect(jobTypeOf('', U)).toBeNull();
    expect(jobTypeOf('No jobs running.\n', U)).toBeNull();
  });
});
