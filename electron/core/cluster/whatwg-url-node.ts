/**
 * What node-fetch 2 (client-node's HTTP library) gets for `require('whatwg-url')` in the bundles
 * (scripts/build.mjs nodeFetchUrlPlugin): Node's own URL class. node-fetch reads whatwg-url's
 * URL only where Node has none (lib/index.js: `Url.URL || whatwgUrl.URL`; Node has had one since
 * 10), so the package never ran; loading it parsed tr46's Unicode mapping table, ~1 MB of
 * objects every `start` kept alive and its garbage collector copied (heap profile of a start).
 */
export const URL = globalThis.URL;
