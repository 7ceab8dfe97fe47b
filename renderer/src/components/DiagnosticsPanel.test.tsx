/**
 * walk15: the Diagnostics panel showed an OK finding's meaning under its title even when the
 * meaning only said the title again; the CLI already printed such a row as its title alone
 * (walk 14, electron/cli/print-doctor.ts). Both now use shared/doctor.ts shownMeaning. Stores mocked at the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { DoctorFinding } from '../../../shared/doctor';

const finding = (f: Partial<DoctorFinding> & Pick<DoctorFinding, 'id' | 'severity' | 'title' | 'meaning'>): DoctorFinding => ({ fix: null, ...f });
const state = vi.hoisted(() => ({ diagnostics: { findings: [] as unknown[], running: false, error: null, ranAt: null, run: async () => undefined } }));
vi.mock('../stores', () => ({
  useDiagnostics: (sel: (s: unknown) => unknown) => sel(state.diagnostics),
  stores: { diagnostics: { getState: () => state.diagnostics } },
}));

import { DiagnosticsPanel } from './DiagnosticsPanel';

/** The markup of one finding's card, by its id. */
function card(id: string): string {
  const html = renderToStaticMarkup(<DiagnosticsPanel />);
  const start = html.indexOf(`data-testid="finding-${id}"`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('data-testid="finding-', start + 1) === -1 ? undefined : html.indexOf('data-testid="finding-', start + 1));
}

describe('Diagnostics: an OK row whose meaning only repeats its title', () => {
  state.diagnostics.findings = [
    finding({ id: 'immutable', severity: 'ok', title: '/etc/resolv.conf is not immutable', meaning: '/etc/resolv.conf is not immutable.' }),
    finding({ id: 'nameserver-count', severity: 'ok', title: 'At most 3 nameservers', meaning: 'The original lists 1 nameserver; glibc uses up to 3.' }),
    finding({ id: 'port-53', severity: 'warn', title: 'Port 53 is taken', meaning: 'Port 53 is taken.', fix: 'Stop it.' }),
  ];

  it('shows the title alone, once', () => {
    const text = card('immutable').replace(/<[^>]*>/g, ' ');
    expect(text.match(/\/etc\/resolv\.conf is not immutable/g)).toHaveLength(1);
    expect(card('immutable')).not.toContain('is not immutable.');
  });

  it('keeps a meaning that says more than the title, and every non-ok meaning', () => {
    expect(card('nameserver-count')).toContain('The original lists 1 nameserver; glibc uses up to 3.');
    expect(card('port-53')).toContain('Port 53 is taken.');
  });
});
