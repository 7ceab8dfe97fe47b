/**
 * Bundle entry of the privileged helper (scripts/build.mjs → the one file
 * dist/k2s-dns-helper.mjs, installed root-owned as /usr/lib/k2s-dns/k2s-dns-helper.mjs):
 * runs helperMain() on this process's argv and sets the exit status.
 */
import { useCliInvocation } from '../core/cli-invocation';
import { helperMain } from './main';

// The helper's refusals and fixes name the CLI as this install runs it.
useCliInvocation();

process.exitCode = await helperMain(process.argv.slice(2));
