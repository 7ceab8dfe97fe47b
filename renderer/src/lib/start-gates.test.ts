/** The engine Start uses for the user's choice while the checks find it missing (walk 10 L9). */
import { describe, expect, it } from 'vitest';
import type { DoctorFinding } from '../../../shared/doctor';
import { effectiveEngine, engineGates } from './start-gates';

/** The `dnsproxy-version` finding when /opt/k2s/bin/dnsproxy is absent and dnsmasq will be used (electron/core/doctor/dnsproxy-version.ts). */
const NO_ADGUARD = [{ id: 'dnsproxy-version', severity: 'info', title: 'AdGuard dnsproxy not installed; the dnsmasq engine will be used', meaning: '', fix: null, detail: { binary: '/opt/k2s/bin/dnsproxy', engine: 'dnsmasq' } }] as unknown as DoctorFinding[];

describe('effectiveEngine', () => {
  it('AdGuard chosen: Automatic while a check finds no dnsproxy, AdGuard again once one finds it (the choice is never overwritten)', () => {
    expect(effectiveEngine('adguard', engineGates(NO_ADGUARD))).toBe('auto');
    expect(effectiveEngine('adguard', engineGates(null))).toBe('adguard');
    expect(effectiveEngine('adguard', engineGates([]))).toBe('adguard');
  });
  it('an installed choice and Automatic are used as they are', () => {
    expect(effectiveEngine('dnsmasq', engineGates(NO_ADGUARD))).toBe('dnsmasq');
    expect(effectiveEngine('auto', engineGates(NO_ADGUARD))).toBe('auto');
  });
});
