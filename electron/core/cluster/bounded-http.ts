/**
 * The HttpLibrary every Kubernetes API read goes through: client-node 1.4's own
 * (dist/gen/http/isomorphic-fetch.js: node-fetch with the request's method, headers, body and
 * agent) with two bounds it lacks — a deadline for the whole exchange and a body size. Without
 * the size bound a server the kubeconfig names (a user's file, read by `k2s-dns start` as root)
 * could stream JSON whitespace for the whole deadline: 2.6 GB resident in one 5 s request on
 * loopback (brk31), several such requests in parallel in discover. node-fetch's `size` option
 * rejects the body past the bound (FetchError type 'max-size', node-fetch README "Options");
 * the request is then aborted, so the socket is not drained for the rest of the deadline.
 * Redirects are not followed (`redirect: 'error'`, node-fetch README "Options"): node-fetch 2
 * would send the request again, bearer token included, to whatever the `Location` names — another
 * port on the same host is the same host to its header filter (brk31). A 3xx answer rejects with
 * FetchError type 'no-redirect' (or 'invalid-redirect' for an unparsable `Location`).
 */
import { nodeFetch, observableFrom, ResponseContext, type HttpLibrary } from './client-node-parts';

/**
 * Largest API response body read, bytes (decompressed). The reads are one namespace's services,
 * CoreDNS's pods and ConfigMaps, the node list and /version: a cluster of thousands of nodes
 * lists in a few tens of MiB.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * An HttpLibrary whose exchanges end after `timeoutMs` (AbortError), whose bodies stop at
 * `maxBytes` (FetchError 'max-size') and which follows no redirect (FetchError 'no-redirect').
 */
export function boundedHttpLibrary(timeoutMs: number, maxBytes = MAX_RESPONSE_BYTES): HttpLibrary {
  return {
    send(request) {
      const stop = new AbortController();
      const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stop.signal]);
      request.setSignal(signal);
      const headers = request.getHeaders() as Record<string, string>;
      const answered = nodeFetch(request.getUrl(), { method: request.getHttpMethod().toString(), body: request.getBody(), headers, signal, agent: request.getAgent(), size: maxBytes, redirect: 'error' }).then((resp) => {
        const got: Record<string, string> = {};
        resp.headers.forEach((value, name) => {
          got[name] = value;
        });
        // Past the bound the request ends at once; otherwise node-fetch reads on, discarding.
        const bounded = <T>(read: () => Promise<T>) => (): Promise<T> =>
          read().catch((err: unknown) => {
            stop.abort();
            throw err;
          });
        return new ResponseContext(resp.status, got, { text: bounded(() => resp.text()), binary: bounded(() => resp.buffer()) });
      });
      return observableFrom(answered);
    },
  };
}
