import { describe, expect, it } from 'vitest';
import { captureUnitNote } from './capture-unit-note';

const KILLED = 'ActiveState=failed\nSubState=failed\nNRestarts=0\nExecMainCode=2\nExecMainStatus=9\nMainPID=0\nResult=signal\n';
const all = async () => true;

describe('queries: the capture unit once no companion runs', () => {
  it('failed after a kill -9 mid-drain: its state, for the line saying the last rows may be missing', async () => {
    expect(await captureUnitNote(async () => KILLED, all)).toEqual({ activeState: 'failed', subState: 'failed', result: 'signal', lastExit: 'killed by signal KILL' });
  });
  it('inactive, or systemctl failed: nothing', async () => {
    expect(await captureUnitNote(async () => 'ActiveState=inactive\nSubState=dead\nResult=success\n', all)).toBeNull();
    expect(await captureUnitNote(async () => null, all)).toBeNull();
  });
  it('not asked without systemd or without the unit file', async () => {
    let asked = 0;
    const show = async () => (asked++, KILLED);
    expect(await captureUnitNote(show, async (p) => p !== '/run/systemd/system')).toBeNull();
    expect(await captureUnitNote(show, async (p) => p === '/run/systemd/system')).toBeNull();
    expect(asked).toBe(0);
  });
});
