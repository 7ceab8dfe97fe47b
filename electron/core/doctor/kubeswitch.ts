/** Doctor check `kubeswitch`: the KubeSwitch address the proxy also listens on must be assigned here. */
import { cliCommand } from '../../../shared/fix';
import type { DoctorFinding } from '../../../shared/doctor';
import { K2S_DEFAULTS } from '../../../shared/k2s-paths';
import type { DoctorContext } from './context';
import { codeSpan } from '../../../shared/code-span';

/** `kubeswitch`: ok when assigned (deps.hostAddresses), warn when not, info when disabled (`none`). */
export async function checkKubeSwitch(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'kubeswitch', title: 'KubeSwitch address assigned' };
  const address = ctx.kubeSwitch;
  if (address === 'none') {
    return { ...base, severity: 'info', title: 'KubeSwitch listener disabled', meaning: 'The KubeSwitch listener is disabled (--kubeswitch none); only 127.0.0.1:53 serves DNS.', fix: null };
  }
  const assigned = await ctx.deps.hostAddresses();
  if (assigned.includes(address)) {
    return { ...base, severity: 'ok', meaning: `${address} is assigned here, so the proxy also listens on ${address}:53 for pods and the KubeSwitch side.`, fix: null, detail: { address } };
  }
  return {
    ...base,
    severity: 'warn',
    title: `KubeSwitch address ${address} not assigned`,
    meaning: `${address} is not assigned to any interface (K2s creates it on ${K2S_DEFAULTS.kubeSwitchInterface}), so K2s DNS starts without the KubeSwitch listener and containers cannot use it.`,
    fix: `Start K2s so it creates ${K2S_DEFAULTS.kubeSwitchInterface} with ${address}/24, then restart K2s DNS (or start with ${codeSpan(cliCommand('start --kubeswitch none', true))} if you do not need it).`,
    remedy: { action: null, gui: `Start K2s so it creates ${K2S_DEFAULTS.kubeSwitchInterface} with ${address}/24, then Stop and Start K2s DNS (or choose KubeSwitch listener: none in Start options if you do not need it).`, cli: cliCommand('start --kubeswitch none', true) },
    detail: { address, assigned },
  };
}
