/**
 * The parts of @kubernetes/client-node 1.4 that kube-client.ts uses, imported from the modules
 * that define them (the package has no exports map, so its dist/ paths are importable) instead
 * of the package index. The index also imports exec/attach/port-forward/cp/log/watch support
 * (ws, tar-fs, tar-stream, streamx…): CommonJS packages that the bundle must keep and run when
 * the chunk loads, though discovery and status never use them. Same classes, same behaviour:
 * the index re-exports exactly these (dist/index.js, dist/gen/index.js; CoreV1Api and
 * VersionApi are the index's names for ObjectCoreV1Api and ObjectVersionApi).
 * scripts/client-node-chunk.ts re-exports this module so the build keeps it in its own chunk.
 */
export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
// Not re-exported by the package index; the same builders loadFromString calls.
export { newClusters, newContexts, newUsers } from '@kubernetes/client-node/dist/config_types.js';
export { ApiException } from '@kubernetes/client-node/dist/gen/apis/exception.js';
export { ObjectCoreV1Api as CoreV1Api, ObjectVersionApi as VersionApi } from '@kubernetes/client-node/dist/gen/types/ObjectParamAPI.js';
export { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
export { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
export { IsomorphicFetchHttpLibrary } from '@kubernetes/client-node/dist/gen/http/isomorphic-fetch.js';
export type { HttpLibrary } from '@kubernetes/client-node/dist/gen/http/http.js';
