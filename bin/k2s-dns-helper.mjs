#!/usr/bin/env node
// The privileged helper entry (see electron/helper/main.ts): fixed verbs, JSON events on stdout.
import { register } from 'tsx/esm/api';

// start talks to the Kubernetes API: load @kubernetes/client-node before tsx's loader hooks
// (through them its ~400 ESM files take about 3x longer to load).
if (process.argv[2] === 'start') await import('@kubernetes/client-node');

register();
const { helperMain } = await import('../electron/helper/main.ts');
process.exitCode = await helperMain(process.argv.slice(2));
