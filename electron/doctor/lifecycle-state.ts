/** Doctor check `lifecycle-state`: the K2s DNS state as `k2s-dns status` reports it (electron/lifecycle/status.ts). */
import type { DoctorFinding } from '../../shared/doctor';
import { dnsStatus } from '../lifecycle/status';
import type { DoctorContext } from './context';

/** `lifecycle-state`: ok when running or stopped cleanly, warn when degraded or the resolver was changed by someone else. */
export async function checkLifecycleState(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'lifecycle-state', title: 'K2s DNS state' };
  const s = await dnsStatus(ctx.deps);
  const detail = { state: s.state, resolverOwner: s.resolverOwner, pid: s.pid, messages: s.messages };
  if (s.resolverOwner === 'foreign') {
    return {
      ...base,
      severity: 'warn',
      title: 'K2s DNS state: /etc/resolv.conf changed by another program',
      meaning: '/etc/resolv.conf was replaced by someone else (NetworkManager or a DHCP client?) while K2s DNS ran, so the host no longer asks the proxy.',
      fix: 'See what changed with `k2s-dns diff`, then run `k2s-dns stop --on-drift keep` (keep theirs) or `--on-drift restore` (put the saved original back).',
      detail,
    };
  }
  if (s.state === 'degraded') {
    return {
      ...base,
      severity: 'warn',
      title: 'K2s DNS state: degraded',
      meaning: `K2s DNS is half started or half stopped${s.messages.length ? `: ${s.messages.join(' ')}` : ' (state file, proxy and /etc/resolv.conf disagree).'}`,
      fix: 'Run `sudo k2s-dns recover` if an operation was interrupted, else `sudo k2s-dns stop` to restore the saved resolver, then `sudo k2s-dns start`.',
      detail,
    };
  }
  return {
    ...base,
    severity: 'ok',
    title: s.state === 'running' ? 'K2s DNS state: running' : 'K2s DNS state: stopped',
    meaning: s.state === 'running' ? `K2s DNS is running (proxy PID ${s.pid ?? '?'}) and owns /etc/resolv.conf.` : 'K2s DNS is stopped and /etc/resolv.conf is the original.',
    fix: null,
    detail,
  };
}
