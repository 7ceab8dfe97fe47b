import { describe, expect, expectTypeOf, it } from 'vitest';
import { ENGINE_NAMES, ENGINES, engineOfLogProcess, isEngineName, type EngineInfo, type EngineName } from './table';
import { ENGINE_NAMES as SCHEMA_ENGINE_NAMES, startInput } from '../operation-input';

describe('engine table (shared/engines/table.ts)', () => {
  it('lists the two engines in Automatic order, and the schema takes its names from it', () => {
    expect(ENGINE_NAMES).toEqual(['adguard', 'dnsmasq']);
    expect(SCHEMA_ENGINE_NAMES).toBe(ENGINE_NAMES);
  });

  it.each(ENGINE_NAMES)('%s has a label, a log identity and every capability', (name) => {
    const e: EngineInfo = ENGINES[name];
    expect(e.label.length).toBeGreaterThan(0);
    expect(e.logProcess === null || /^[a-z][a-z0-9-]*$/.test(e.logProcess)).toBe(true);
    expect(['ms', 's']).toContain(e.capabilities.latency);
    expect(typeof e.capabilities.localAnswers).toBe('boolean');
    expect(Object.keys(e.capabilities).sort()).toEqual(['latency', 'localAnswers']);
  });

  it('tells every engine\'s log lines apart: one engine without a process field, distinct process names', () => {
    expect(ENGINE_NAMES.filter((n) => ENGINES[n].logProcess === null)).toEqual(['adguard']);
    for (const n of ENGINE_NAMES) expect(engineOfLogProcess(ENGINES[n].logProcess === null ? undefined : `${ENGINES[n].logProcess}[812]`)).toBe(n);
    expect(engineOfLogProcess('dnsmasq-dhcp[812]')).toBe('dnsmasq');
    expect(engineOfLogProcess('systemd[1]')).toBe('adguard');
  });

  it('isEngineName accepts exactly the table names', () => {
    for (const n of ENGINE_NAMES) expect(isEngineName(n)).toBe(true);
    for (const v of ['auto', 'AdGuard', 'toString', '', null, 1]) expect(isEngineName(v)).toBe(false);
  });

  it('the Start schema accepts every table name and nothing else', () => {
    for (const engine of ENGINE_NAMES) expect(startInput.safeParse({ engine }).success).toBe(true);
    expect(startInput.safeParse({ engine: 'unbound' }).success).toBe(false);
  });

  it('a third entry type-checks through the same shape and widens the derived name union', () => {
    const WITH_THIRD = {
      ...ENGINES,
      unbound: { label: 'Unbound', logProcess: 'unbound', versionPattern: /^Version (\S+)/m, capabilities: { latency: 'ms', localAnswers: true } },
    } as const satisfies Record<string, EngineInfo>;
    expectTypeOf<keyof typeof WITH_THIRD>().toEqualTypeOf<EngineName | 'unbound'>();
    expect(Object.keys(WITH_THIRD)).toEqual([...ENGINE_NAMES, 'unbound']);
  });
});
