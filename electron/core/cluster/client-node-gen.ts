/**
 * What @kubernetes/client-node 1.4's dist/config.js imports from its generated client's index
 * (`./gen/index.js`: createConfiguration and ServerConfiguration, for KubeConfig.makeApiClient),
 * from the modules that define them. The bundles resolve that import here (scripts/build.mjs
 * clientNodeGenPlugin): the index also re-exports every generated API and model class (~700
 * models, each building its attribute table when the script loads), which kube-client.ts no
 * longer uses (kube-api.ts), and whose load was most of the client's objects a `start`'s
 * garbage collector then copied. A name config.js imports that is not here fails the build.
 */
export { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
export { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
