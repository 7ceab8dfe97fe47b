/**
 * The contract over HTTP + WebSocket (web mode): POST /api/<call> and the /api/events push
 * channel. Auth is the HttpOnly cookie the server set on the first page load, so no token is
 * ever visible to page scripts.
 */
import { buildApi, type K2sDnsApi } from '../../../shared/api';
import type { ContractEvents, EventName } from '../../../shared/contract';

type Listener = (payload: never) => void;

/** Builds the web API for the page's own origin. Reconnects the event socket with backoff. */
export function createWebClient(): K2sDnsApi {
  const listeners = new Map<EventName, Set<Listener>>([
    ['lifecycle:event', new Set()],
    ['logs:lines', new Set()],
  ]);
  let socket: WebSocket | null = null;
  let retryMs = 500;

  const connect = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/events`);
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
    async (call, input) => {
      try {
        const res = await fetch(`/api/${call}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(input),
        });
        return await res.json();
      } catch (err) {
        return { ok: false, error: { code: 'NETWORK', message: `Cannot reach the app backend (${(err as Error).message}); is \`k2s-dns app --web\` still running?` } };
      }
    },
    <E extends EventName>(event: E, cb: (payload: ContractEvents[E]) => void) => {
      const set = listeners.get(event)!;
      set.add(cb as Listener);
      if (!socket) connect();
      return () => void set.delete(cb as Listener);
    },
  );
}
