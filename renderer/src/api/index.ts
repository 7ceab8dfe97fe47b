/** The one `api` object the renderer uses: Electron's preload bridge, else the web client. */
import type { K2sDnsApi } from '../../../shared/api';
import { createWebClient } from './web-client';

declare global {
  interface Window {
    /** Set by electron/main/preload.ts; absent in web mode. */
    k2sDns?: K2sDnsApi;
  }
}

/** Same typed interface whichever transport carries it. */
export const api: K2sDnsApi = window.k2sDns ?? createWebClient();
