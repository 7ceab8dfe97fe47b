/**
 * `npm run sandbox`: puts the built AdGuard dnsproxy (.tools/bin/dnsproxy, scripts/build-engines.sh)
 * where K2s installs it, `<K2s install dir>/bin/dnsproxy` (/opt/k2s/bin/dnsproxy), inside the
 * sandbox's private /opt (e2e/bed/inner.sh mounts a tmpfs there), so Automatic picks AdGuard,
 * the Engine select offers it and the doctor finds it the way start does (chooseEngine).
 */
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { K2S_DEFAULTS } from '../shared/k2s-paths';
import { builtVersion, ENGINE_BIN } from './bed/engines';
import { assertSandbox } from './bed/testbed';

/** What the sandbox offers: the engines Automatic can pick from and one line saying why. */
export interface SandboxEngines {
  engines: ('adguard' | 'dnsmasq')[];
  /** Where AdGuard came from, or why it is not offered (`skipped: …`). */
  note: string;
}

/**
 * Copies `source` (default .tools/bin/dnsproxy) to `<installDir>/bin/dnsproxy`, mode 0755.
 * Refuses outside the sandbox (assertSandbox throws: /opt/k2s is the host's real install dir
 * there). When the binary is absent, copies nothing and says `skipped: <why>`.
 */
export async function installSandboxDnsproxy(source = ENGINE_BIN.dnsproxy, installDir: string = K2S_DEFAULTS.installDir): Promise<SandboxEngines> {
  await assertSandbox();
  if (!existsSync(source)) {
    return { engines: ['dnsmasq'], note: 'skipped: AdGuard dnsproxy is not built in .tools/bin (bash scripts/build-engines.sh builds it; it needs Go), so the sandbox offers dnsmasq only' };
  }
  const target = join(installDir, 'bin', 'dnsproxy');
  await mkdir(join(installDir, 'bin'), { recursive: true, mode: 0o755 });
  await copyFile(source, target);
  await chmod(target, 0o755);
  const version = (await builtVersion('dnsproxy')) ?? 'unknown version';
  return { engines: ['adguard', 'dnsmasq'], note: `AdGuard dnsproxy ${version} from .tools/bin, installed at ${target} inside the sandbox` };
}

/** The sandbox banner's engine sentence, e.g. "Engine: Automatic (AdGuard dnsproxy), AdGuard dnsproxy or dnsmasq." */
export function engineSentence(e: SandboxEngines): string {
  return e.engines.includes('adguard') ? `Engine: Automatic (picks AdGuard dnsproxy), AdGuard dnsproxy or dnsmasq — ${e.note}.` : `Engine: Automatic or dnsmasq (${e.note}).`;
}
