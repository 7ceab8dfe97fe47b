/**
 * The contract over HTTP + WebSocket (web mode): POST /api/<call> and the /api/events push
 * channel. The per-launch token comes from the URL fragment (page-token.ts) and is presented as
 * `Authorization: Bearer` on calls and as the `k2s-dns.token.<T>` WebSocket subprotocol; the
 * browser holds no cookie another local server could receive (electron/web/guards.ts).
 */
import { buildApi, type K2sDnsApi } from '../../../shared/api';
import type { ContractEvents, EventName } from '../../../shared/contract';
import { tokenFromFragment } from './page-token';
import { webInvoke } from './web-invoke';

type Listener = (payload: never) => void;

/**
 * Builds the web API for the page's own origin, presenting `token` (page-token.ts
 * takeWindowToken; '' when the tab has none). Reconnects the event socket with backoff.
 */
export function createWebClient(token: string): K2sDnsApi {
  const listeners = new Map<EventName, Set<Listener>>([
    ['lifecycle:event', new Set()],
    ['logs:lines', new Set()],
    ['logs:reset', new Set()],
  ]);
  let socket: WebSocket | null = null;
  let retryMs = 500;
  // The printed #token=… URL pasted into a tab already open (only the fragment changes, so the
  // browser does not load the page again): load it with that token.
  window.addEventListener('hashchange', () => {
    if (tokenFromFragment(location.hash) !== null) location.reload();
  });

  const connect = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/events`, ['k2s-dns', `k2s-dns.token.${token}`]);
    socket.onopen = () => (retryMs = 500);
    socket.onmessage = (m) => {
      const { event, payload } = JSON.parse(String(m.data)) as { event: EventName; payload: never };
      for (const cb of listeners.get(event) ?? []) cb(payload);
    };
    socket.onclose = () => {
      socket = null;
      // Reconnect only while someone listens; back off up to 10 s so a stopped server is not hammered.
      if ([...listeners.values()].some((s) => s.size > 0)) setTimeout(connect, (retryMs = Math.min(retryMs * 2, 10_000)));
    };
  };

  return buildApi(
    (call, input) => webInvoke(fetch, token, call, input),
    <E extends EventName>(event: E, cb: (payload: ContractEvents[E]) => void) => {
      const set = listeners.get(event)!;
      set.add(cb as Listener);
      if (!socket) connect();
      return () => void set.delete(cb as Listener);
    },
  );
}
