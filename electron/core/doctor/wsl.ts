/**
 * Doctor check `wsl`: WSL regenerates /etc/resolv.conf at every start of the distribution
 * unless wsl.conf turns it off, overwriting the K2s-owned file behind its back. The verdict is
 * shared/wsl.ts's, the same one start refuses on.
 */
import type { DoctorFinding } from '../../../shared/doctor';
import { WSL_CONF_PATH, wslConfSays, wslRefusalMessage, wslResolverVerdict, type WslResolverVerdict } from '../../../shared/wsl';
import { readWslInputs } from '../host/wsl-inputs';
import { resolverText } from '../host/resolver-state';
import type { DoctorContext } from './context';

export { isWslKernel, WSL_RESOLV_HEADER, wslHeaderLine } from '../../../shared/wsl';

/** True when `text` carries WSL's generated-file header or its `generateResolvConf` hint on any line. */
export function isWslGeneratedResolvConf(text: string): boolean {
  return wslResolverVerdict({ resolvText: text, wslConfText: null, procVersion: '' }).headerLine !== null;
}

/**
 * `wsl`: error when /etc/resolv.conf (or the saved original) is WSL-generated and wsl.conf does
 * not turn generation off (start refuses WSL_RESOLV_CONF); info for a leftover WSL file with
 * generation off; warn on a WSL kernel that will still write its own file; ok when not WSL.
 */
export async function checkWsl(ctx: DoctorContext): Promise<DoctorFinding> {
  const base = { id: 'wsl', title: 'WSL-generated resolv.conf' };
  const { wslConfText, procVersion } = await readWslInputs(ctx.deps.fs);
  const verdicts = [ctx.current ? resolverText(ctx.current) : null, ctx.originalText]
    .filter((t): t is string => t !== null)
    .map((resolvText) => wslResolverVerdict({ resolvText, wslConfText, procVersion }));
  const order: WslResolverVerdict['kind'][] = ['regenerates', 'leftover', 'kernel-generating', 'kernel-off', 'none'];
  const v = verdicts.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))[0] ?? wslResolverVerdict({ resolvText: null, wslConfText, procVersion });
  const detail = { wslKernel: v.wslKernel, headerLine: v.headerLine, generateResolvConf: v.generateResolvConf.value, wslConfLine: v.generateResolvConf.line };
  switch (v.kind) {
    case 'regenerates':
      return {
        ...base,
        severity: 'error',
        title: '/etc/resolv.conf is WSL-generated',
        meaning: `${wslRefusalMessage(v)} So k2s-dns start refuses (WSL_RESOLV_CONF).`,
        fix: `Add \`[network]\` \`generateResolvConf = false\` to ${WSL_CONF_PATH}, run \`wsl --shutdown\`, and write your own /etc/resolv.conf before starting K2s DNS.`,
        detail,
      };
    case 'leftover':
      return {
        ...base,
        severity: 'info',
        title: 'WSL-generated resolv.conf, but WSL no longer writes it',
        meaning: `/etc/resolv.conf still carries WSL's header (line ${v.headerLine}), but ${wslConfSays(v)}, so WSL will not rewrite it and K2s DNS can manage it.`,
        fix: null,
        detail,
      };
    case 'kernel-generating':
      return {
        ...base,
        severity: 'warn',
        title: 'WSL kernel: WSL will write its own /etc/resolv.conf at its next start',
        meaning: `This Linux runs under WSL (/proc/version names Microsoft) and ${wslConfSays(v)}: /etc/resolv.conf is not WSL's now, but WSL replaces it (and the K2s-owned file) at the next start of the distribution.`,
        fix: `Add \`[network]\` \`generateResolvConf = false\` to ${WSL_CONF_PATH}.`,
        detail: { ...detail, procVersion: procVersion.trim() },
      };
    case 'kernel-off':
      return {
        ...base,
        severity: 'info',
        title: 'WSL kernel, but /etc/resolv.conf is not WSL-generated',
        meaning: `This Linux runs under WSL (/proc/version names Microsoft), but /etc/resolv.conf is not WSL-generated and ${wslConfSays(v)}, so WSL will not overwrite it.`,
        fix: null,
        detail: { ...detail, procVersion: procVersion.trim() },
      };
    default:
      return { ...base, severity: 'ok', title: 'Not WSL: /etc/resolv.conf is not WSL-generated', meaning: 'Not a WSL-generated resolv.conf and not a WSL kernel.', fix: null };
  }
}
