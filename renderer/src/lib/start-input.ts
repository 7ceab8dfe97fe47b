/**
 * The one dns:start input every Start button sends (the Host DNS card's and the verdict's): the
 * zones allowed in the Zones panel, the Engine select, the KubeSwitch choice, the network-change
 * policy and the upstreams typed in Start options. Empty fields mean "let discovery decide".
 */
import type { CallInput } from '../../../shared/contract';
import type { UiState } from './ui-state';

/** Builds the dns:start input from the Start options and the allowed zones. */
export function startInputOf(ui: Pick<UiState, 'engine' | 'kubeSwitchMode' | 'kubeSwitchAddress'> & Partial<Pick<UiState, 'onNetworkChange' | 'upstreamsText'>>, allowZones: readonly string[]): CallInput<'dns:start'> {
  const address = ui.kubeSwitchAddress.trim();
  const upstreams = upstreamList(ui.upstreamsText ?? '');
  return {
    ...(upstreams.length ? { upstreams } : {}),
    ...(allowZones.length ? { allowZones: [...allowZones] } : {}),
    ...(ui.engine === 'auto' ? {} : { engine: ui.engine }),
    ...(ui.kubeSwitchMode === 'none' ? { kubeSwitch: 'none' } : ui.kubeSwitchMode === 'address' && address ? { kubeSwitch: address } : {}),
    ...(ui.onNetworkChange === 'keep' ? { onNetworkChange: 'keep' as const } : {}),
  };
}

/** `192.168.1.1, [fd00::1]:53` → the list dns:start takes (space- or comma-separated). */
export function upstreamList(text: string): string[] {
  return text.split(/[\s,]+/).filter((t) => t !== '');
}
