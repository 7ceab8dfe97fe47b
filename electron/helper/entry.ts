/**
 * Bundle entry of the privileged helper (scripts/build.mjs → the one file
 * dist/k2s-dns-helper.mjs, installed root-owned as /usr/lib/k2s-dns/k2s-dns-helper.mjs):
 * runs helperMain() on this process's argv and sets the exit status.
 */
import { useCliInvocation } from '../core/cli-invocation';
import { helperMain } from './main';
import { surviveClosedOutput } from '../core/closed-output';

// The helper's refusals and fixes name the CLI as this install runs it.
useCliInvocation();
// A caller that went away (the window's process killed mid-Start) must not end the lifecycle half-done.
surviveClosedOutput();

process.exitCode = await helperMain(process.argv.slice(2));
