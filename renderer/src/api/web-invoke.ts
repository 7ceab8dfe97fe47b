/**
 * One API call over HTTP (POST /api/<call>, the token as `Authorization: Bearer`), with a retry
 * for calls that change nothing. Seen in CI (1 run in ~40 under load): the window's first
 * doctor:run failed with "Failed to fetch" while the backend was up and every other call
 * answered; the Start gate then never learned that 127.0.0.1:53 was taken. A POST whose
 * keep-alive socket the server closes as it leaves is not retried by the browser (it is not
 * idempotent), so the page does it for read-only calls. Start, stop and uninstall are never
 * repeated: the user sees the failure and decides.
 */
import { LIFECYCLE_CALLS, type CallName } from '../../../shared/contract';

/** Tries after the first for a read-only call, and the pause before each (ms). */
const RETRY_PAUSES_MS = [150, 500] as const;

/**
 * POSTs `input` as JSON to `/api/<call>` and returns the parsed envelope; a network failure is
 * retried (RETRY_PAUSES_MS) for read-only calls, then becomes a `NETWORK` error envelope.
 * Never throws.
 */
export async function webInvoke(
  fetchFn: typeof fetch,
  token: string,
  call: CallName | string,
  input: unknown,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<unknown> {
  const pauses = LIFECYCLE_CALLS.has(call as CallName) ? [] : RETRY_PAUSES_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetchFn(`/api/${call}`, {
        method: 'POST',
        // 'omit': nothing browser-managed authenticates us; the token travels in the header.
        credentials: 'omit',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(input),
      });
      return await res.json();
    } catch (err) {
      const pause = pauses[attempt];
      if (pause === undefined) {
        return { ok: false, error: { code: 'NETWORK', message: `The app backend does not answer (${(err as Error).message}): it was stopped or restarted. Start it again (npm start, npm run sandbox or k2s-dns ui) and open the new address it prints; each start has a new token.` } };
      }
      await sleep(pause);
    }
  }
}
