/**
 * Build-only entry (scripts/build.mjs → dist/vendor-client-node.mjs; nothing runs it): re-exports
 * exactly what electron/core/cluster/kube-client.ts uses from @kubernetes/client-node
 * (electron/core/cluster/client-node-parts.ts), so esbuild puts
 * those library modules in chunks apart from our code (it groups modules by the entries that
 * reach them) with the same tree shaking, and the build can drop their source maps.
 */
export * from '../electron/core/cluster/client-node-parts';
