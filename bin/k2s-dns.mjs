#!/usr/bin/env node
// Entry of the `k2s-dns` CLI: runs the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../electron/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
