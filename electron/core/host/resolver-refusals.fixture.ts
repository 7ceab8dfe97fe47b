/**
 * Helper for resolver-refusals.test.ts, run inside the test's own mount namespace: tries to
 * restore over a bind-mounted <root>/etc/resolv.conf and prints the error message to stdout.
 */
import { createHostFs } from './host-fs-node';
import { restoreResolver } from './resolver-state';

const root = process.argv[2];
if (!root) throw new Error('usage: resolver-refusals.fixture.ts ROOT');
await restoreResolver(createHostFs(root), { kind: 'file', contentBase64: Buffer.from('x\n').toString('base64'), mode: 0o644, uid: 0, gid: 0, immutable: false }).then(
  () => console.log('restored (unexpected)'),
  (err: Error) => console.log(err.message),
);
