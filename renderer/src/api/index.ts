/** The one `api` object the renderer uses: Electron's preload bridge, else the web client. */
import type { K2sDnsApi } from '../../../shared/api';
import { badFragmentToken, takeWindowToken } from './page-token';
import { createWebClient } from './web-client';

declare global {
  interface Window {
    /** Set by electron/main/preload.ts; absent in web mode. */
    k2sDns?: K2sDnsApi;
  }
}

/** Web mode: this tab's token (page-token.ts: the #token= fragment, or an earlier load's); null with the Electron bridge or when the tab has none. */
const token = window.k2sDns ? null : takeWindowToken();

/** Same typed interface whichever transport carries it. */
export const api: K2sDnsApi = window.k2sDns ?? createWebClient(token ?? '');

/**
 * True in web mode when this tab has no token: the address without `#token=…` (the app strips it
 * from the address bar, so a copied address or a new tab has none). Every API call would be
 * refused (401), so the page asks nothing and shows only the token screen (components/TokenScreen).
 */
export const pageWithoutToken: boolean = !window.k2sDns && token === null;

/** With pageWithoutToken: the `#token=` value the address gave that is no token of this app (page-token.ts badFragmentToken), else null. */
export const pageBadToken: string | null = pageWithoutToken ? badFragmentToken(location.hash) : null;
