/**
 * The parts of @kubernetes/client-node 1.4 that kube-client.ts and kube-api.ts use, imported from
 * the modules that define them (the package has no exports map, so its dist/ paths are
 * importable) instead of the package index. The index also imports exec/attach/port-forward/cp/
 * log/watch support (ws, tar-fs, tar-stream, streamx…) and the generated API and model classes:
 * CommonJS packages and ~700 classes that the bundle must keep and run when the chunk loads,
 * though discovery and status only GET a few objects. Same classes, same behaviour: the index
 * re-exports exactly these (dist/index.js, dist/gen/index.js). Its auth (KubeConfig: exec
 * plugins, tokens, certificates, proxies) is what every request applies (kube-api.ts).
 */
export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
// Not re-exported by the package index; the same builders loadFromString calls.
export { newClusters, newContexts, newUsers } from '@kubernetes/client-node/dist/config_types.js';
export { ApiException } from '@kubernetes/client-node/dist/gen/apis/exception.js';
export { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
export { HttpMethod } from '@kubernetes/client-node/dist/gen/http/http.js';
export { ResponseContext } from '@kubernetes/client-node/dist/gen/http/http.js';
export type { HttpLibrary, RequestContext } from '@kubernetes/client-node/dist/gen/http/http.js';
export { from as observableFrom } from '@kubernetes/client-node/dist/gen/rxjsStub.js';
// client-node's HTTP library itself (isomorphic-fetch.js calls it), for a body size bound (bounded-http.ts).
export { default as nodeFetch } from 'node-fetch';
