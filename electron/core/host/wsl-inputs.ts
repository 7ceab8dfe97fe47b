/** The files the WSL detector (shared/wsl.ts) reads, through the injected HostFs. */
import { WSL_CONF_PATH } from '../../../shared/wsl';
import type { HostFs } from './host-fs';

/** /etc/wsl.conf text (null when absent or unreadable) and /proc/version text ('' when unreadable). */
export async function readWslInputs(fs: Pick<HostFs, 'readFile'>): Promise<{ wslConfText: string | null; procVersion: string }> {
  const wslConfText = await fs.readFile(WSL_CONF_PATH).then((b) => b.toString('utf8'), () => null);
  const procVersion = (await fs.readFile('/proc/version').catch(() => Buffer.alloc(0))).toString('utf8');
  return { wslConfText, procVersion };
}
