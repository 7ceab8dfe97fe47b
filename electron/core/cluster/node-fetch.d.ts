/**
 * The part of node-fetch 2 (client-node 1.4's HTTP library; the package ships no types) that
 * bounded-http.ts calls: fetch(url, options) with the `size` bound and the `agent`
 * (node-fetch README "Options"). A body past `size` bytes rejects with a FetchError whose
 * `type` is 'max-size'; with `redirect: 'error'` a 3xx answer rejects with type 'no-redirect'.
 */
declare module 'node-fetch' {
  import type { Agent } from 'node:http';
  interface NodeFetchResponse {
    status: number;
    headers: { forEach(fn: (value: string, name: string) => void): void };
    text(): Promise<string>;
    buffer(): Promise<Buffer>;
  }
  interface NodeFetchOptions {
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
    signal?: AbortSignal;
    agent?: Agent | undefined;
    /** Largest body in bytes that text()/buffer() accept; 0 for no bound. */
    size?: number;
    /** 'follow' (node-fetch's default, up to 20 hops), 'error' (a 3xx rejects with FetchError 'no-redirect') or 'manual'. */
    redirect?: 'follow' | 'error' | 'manual';
  }
  export default function fetch(url: string, options?: NodeFetchOptions): Promise<NodeFetchResponse>;
}
