import { describe, expect, it } from 'vitest';
import type { DoctorFinding } from '../../shared/doctor';
import { formatDoctor } from './print-doctor';

const FINDINGS: DoctorFinding[] = [
  { id: 'lifecycle-state', severity: 'ok', title: 'K2s DNS state', meaning: 'K2s DNS is stopped and /etc/resolv.conf is the original.', fix: null },
  { id: 'kubeswitch', severity: 'warn', title: 'KubeSwitch address assigned', meaning: '172.19.1.1 is not assigned to any interface.', fix: 'Start K2s.' },
  { id: 'port-53', severity: 'error', title: '127.0.0.1:53 free for the proxy', meaning: '127.0.0.1:53/udp is held by dnsmasq (PID 812).', fix: 'Stop that process.' },
  { id: 'cluster', severity: 'info', title: 'Cluster reachable', meaning: 'No kubeconfig was found, so the cluster was not checked.', fix: null },
];

describe('formatDoctor', () => {
  it('prints the summary, then errors, warnings, info and ok findings with their fix', () => {
    expect(formatDoctor(FINDINGS)).toBe(
      [
        'K2s DNS doctor: 1 error, 1 warning, 1 info, 1 ok',
        '',
        'ERROR  127.0.0.1:53 free for the proxy',
        '       127.0.0.1:53/udp is held by dnsmasq (PID 812).',
        '       fix: Stop that process.',
        '',
        'WARN   KubeSwitch address assigned',
        '       172.19.1.1 is not assigned to any interface.',
        '       fix: Start K2s.',
        '',
        'INFO   Cluster reachable',
        '       No kubeconfig was found, so the cluster was not checked.',
        '',
        'OK     K2s DNS state: K2s DNS is stopped and /etc/resolv.conf is the original.',
      ].join('\n'),
    );
  });

  it('says 0 errors for a clean host', () => {
    expect(formatDoctor([FINDINGS[0]!]).split('\n')[0]).toBe('K2s DNS doctor: 0 errors, 0 warnings, 0 info, 1 ok');
  });
});

describe('doctor OK rows', () => {
  it('an ok meaning that only repeats the title is left out; another meaning is kept (walk 14)', () => {
    const same = { id: 'immutable', group: 'host', severity: 'ok', title: '/etc/resolv.conf is not immutable', meaning: '/etc/resolv.conf is not immutable.' } as unknown as DoctorFinding;
    const other = { id: 'x', group: 'host', severity: 'ok', title: 'Original upstreams answer', meaning: '192.0.2.53:53 answered kubernetes.io.' } as unknown as DoctorFinding;
    const lines = formatDoctor([same, other]).split('\n').filter((l) => l.startsWith('OK'));
    expect(lines.map((l) => l.replace(/^OK\s+/, ''))).toEqual(['/etc/resolv.conf is not immutable', 'Original upstreams answer: 192.0.2.53:53 answered kubernetes.io.']);
  });
});
