// Adds up vitest and Playwright JSON reports into one line: "tests: N passed, N failed, N skipped",
// preceded by the DNS engine versions the e2e run used (the binaries in .tools/bin, built by
// scripts/build-engines.sh at tools/engines/versions.env).
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** First line `BIN FLAG` prints, or null when the binary is missing or fails. */
function firstLine(bin, flag) {
  try {
    return execFileSync(bin, [flag], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return null;
  }
}
const tools = fileURLToPath(new URL('../.tools/bin/', import.meta.url));
const dnsproxy = firstLine(`${tools}dnsproxy`, '--version')?.replace(/^dnsproxy version /, '') ?? 'not built (e2e adguard cases skipped)';
const coredns = firstLine(`${tools}coredns`, '-version')?.replace(/^CoreDNS-/, 'v') ?? 'not built (test bed used the dnsmasq stand-in)';
console.log(`engines: AdGuard dnsproxy ${dnsproxy}, CoreDNS ${coredns}, ${firstLine('/usr/sbin/dnsmasq', '--version')?.match(/^Dnsmasq version (\S+)/)?.[1]?.replace(/^/, 'dnsmasq ') ?? 'dnsmasq not installed'}`);

/** Titles of Playwright tests that failed first and passed on their retry (status "flaky"). */
function flakyTitles(suite, out = []) {
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) if (t.status === 'flaky') out.push(`${spec.file}:${spec.line} › ${spec.title}`);
  }
  for (const child of suite.suites ?? []) flakyTitles(child, out);
  return out;
}

/** Titles of Playwright tests that failed on every try (status "unexpected"). */
function failedUiTitles(suite, out = []) {
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) if (t.status === 'unexpected') out.push(`${spec.file}:${spec.line} › ${spec.title}`);
  }
  for (const child of suite.suites ?? []) failedUiTitles(child, out);
  return out;
}

/** The first three non-empty lines of a failure message, colour codes removed, at most 500 characters. */
function whyOf(message) {
  const lines = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.slice(0, 3).join(' | ').slice(0, 500) || '(no message)';
}

/** Titles of vitest tests that were skipped (their count changes between machines: say which). */
function skippedVitestTitles(report, out = []) {
  for (const file of report.testResults ?? []) {
    const rel = String(file.name ?? '').replace(`${process.cwd()}/`, '');
    for (const a of file.assertionResults ?? []) if (a.status === 'pending' || a.status === 'skipped') out.push(`${rel} › ${a.fullName ?? a.title}`);
  }
  return out;
}

/** Titles of vitest tests that failed, and test files that failed to run at all (no assertions). */
function failedVitestTitles(report, out = []) {
  for (const file of report.testResults ?? []) {
    const rel = String(file.name ?? '').replace(`${process.cwd()}/`, '');
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    // With the first lines of why (CI shows only the end of the output: this is what is read there).
    for (const a of failedTests) out.push(`${rel} › ${a.fullName ?? a.title}\n    why: ${whyOf(a.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedTests.length === 0) out.push(`${rel} › (the file failed: ${String(file.message ?? '').split('\n')[0]})`);
  }
  return out;
}

let passed = 0, failed = 0, skipped = 0;
const flaky = [];
const failures = [];
const skippedTitles = [];
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof r.numPassedTests === 'number') {
    // vitest
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    failedVitestTitles(r, failures);
    skippedVitestTitles(r, skippedTitles);
  } else if (r.stats) {
    // Playwright
    passed += r.stats.expected ?? 0;
    for (const suite of r.suites ?? []) flakyTitles(suite, flaky);
    for (const suite of r.suites ?? []) failedUiTitles(suite, failures);
    failed += r.stats.unexpected ?? 0;
    skipped += r.stats.skipped ?? 0;
  }
}
for (const title of skippedTitles.slice(0, 20)) console.log(`skipped: ${title}`);
if (skippedTitles.length > 20) console.log(`skipped: … and ${skippedTitles.length - 20} more`);
for (const title of failures) console.log(`failed: ${title}`);
for (const title of flaky) console.log(`flaky (failed, then passed on its retry): ${title}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped${flaky.length ? `, ${flaky.length} flaky` : ''}`);
process.exit(failed > 0 ? 1 : 0);
