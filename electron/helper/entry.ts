/**
 * Bundle entry of the privileged helper (scripts/build.mjs → the one file
 * dist/k2s-dns-helper.mjs, installed root-owned as /usr/lib/k2s-dns/k2s-dns-helper.mjs):
 * runs helperMain() on this process's argv and sets the exit status.
 */
import { helperMain } from './main';

process.exitCode = await helperMain(process.argv.slice(2));
