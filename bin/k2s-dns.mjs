#!/usr/bin/env node
// Entry of the `k2s-dns` CLI: runs the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

// Commands that talk to the Kubernetes API load @kubernetes/client-node before tsx's loader
// hooks are registered: through the hooks its ~400 ESM files take about 3x longer to load.
const KUBE_COMMANDS = new Set(['start', 'zones', 'ui', 'app', 'doctor']);
if (KUBE_COMMANDS.has(process.argv[2] ?? '')) await import('@kubernetes/client-node');

register();
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
