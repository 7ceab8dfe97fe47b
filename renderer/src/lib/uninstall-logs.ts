/** The Logs panel's sentence after Uninstall. */
import { K2S_PATHS } from '../../../shared/k2s-paths';

/**
 * What the Logs panel says after Uninstall: it removes both logs the panel reads, the proxy log
 * and the exact query log (electron/core/lifecycle/owned-files.ts OWNED_FILES), so it names both.
 */
export const UNINSTALL_CLEARED_LOGS = `Uninstall removed the proxy log (${K2S_PATHS.log}) and the exact query log (${K2S_PATHS.queryRows}).`;
