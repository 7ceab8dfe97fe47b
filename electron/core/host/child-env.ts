/**
 * The environment of the Node processes k2s-dns starts that make no TLS connection — the network
 * follower, the exact query log's companion, the supervised log guard: this process's, without
 * NODE_EXTRA_CA_CERTS. With that variable set, Node 20 builds its root certificate store and
 * loads the named file when the process starts, before any of its code runs (`node -e 0` on the
 * test bed: 15 ms of CPU without it, 63 ms with Debian's CA bundle named there, 41 ms with a file
 * of no certificate) — on start's path for the capture companion. Nothing else is changed.
 */

import { CALLER_VARS } from './internal-caller';

/** The variable left out (Node's extra root certificates, nodejs.org/api/cli.html). */
export const EXTRA_CA_CERTS_VAR = 'NODE_EXTRA_CA_CERTS';

/** A copy of `env` without EXTRA_CA_CERTS_VAR. */
export function tlsFreeNodeEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  delete out[EXTRA_CA_CERTS_VAR];
  return out;
}

/**
 * The environment of the processes k2s-dns starts that run its internal verbs (the network
 * follower, the capture keeper and companion): tlsFreeNodeEnv(env) without the variables
 * pkexec and sudo set (internal-caller.ts CALLER_VARS), which make those verbs refuse to run.
 */
export function internalVerbEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = tlsFreeNodeEnv(env);
  for (const key of CALLER_VARS) delete out[key];
  return out;
}
