#!/usr/bin/env node
// The privileged helper entry (see electron/helper/main.ts): fixed verbs, JSON events on stdout.
import { register } from 'tsx/esm/api';

register();
const { helperMain } = await import('../electron/helper/main.ts');
process.exitCode = await helperMain(process.argv.slice(2));
