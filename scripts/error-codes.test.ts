/**
 * Every error code product code uses is in the catalogue (shared/error-codes.ts), with the exit
 * status its use implies: a grep over the product files of electron/, shared/ and renderer/.
 * A code is a literal in one of these places: `code: 'X'`, `readonly code = 'X'`,
 * `refused('X'`, `failed('X'`, `fail('X'` (also across a line break), or any quoted
 * UPPER_SNAKE literal with an underscore. Not codes, and skipped: errno names (`'ENOENT'`,
 * `'EAI_AGAIN'`, `'ERR_…'`: Node's), DNS rcodes and probe outcomes, environment variable names,
 * pcap link-layer type names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productFiles, REPO } from './lib/repo-files';
import { ERROR_CODES, EXIT, isErrorCode } from '../shared/error-codes';


/** Names that look like codes but are not error codes. */
const NOT_CODES = new Set([
  // DNS rcodes and probe outcomes (RFC 1035 §4.1.1, shared/types.ts QueryResult.rcode).
  'NOERROR', 'NXDOMAIN', 'SERVFAIL', 'REFUSED', 'FORMERR', 'NOTIMP', 'TIMEOUT', 'ERROR', 'MALFORMED_ANSWER',
  // Environment variables pkexec(1) and sudo(8) set; kubelet's systemd drop-in variables.
  'PKEXEC_UID', 'SUDO_UID', 'SUDO_USER', 'SUDO_GID', 'SUDO_COMMAND', 'SUDO_HOME', 'KUBELET_KUBEADM_ARGS', 'KUBELET_EXTRA_ARGS', 'KUBELET_CONFIG_ARGS', 'KUBELET_KUBECONFIG_ARGS',
  // Our own environment variables naming the CLI and the sandbox's nameserver in fix texts (electron/core/cli-invocation.ts).
  'K2S_DNS_CLI', 'K2S_DNS_SANDBOX_NAMESERVER', 'K2S_DNS_SANDBOX_KUBECONFIG',
  // Node's extra root certificates, left out of the companions' environment (electron/core/host/child-env.ts).
  'NODE_EXTRA_CA_CERTS',
  // The capture parser's environment (electron/core/capture/budget-lift.ts): where its lift pipe is.
  'K2S_CAPTURE_LIFT_FD',
  // pcap link-layer type names (pcap-linktype(7)) tcpdump takes with -y.
  'LINUX_SLL2',
]);
const isErrno = (name: string) => /^E[A-Z0-9]+$/.test(name) || /^(EAI|ERR)_/.test(name);


/** One use of a code: where, and the call that made it (refused/failed) if any. */
interface Use {
  code: string;
  file: string;
  via: string | null;
}

function usesIn(file: string, text: string): Use[] {
  const uses: Use[] = [];
  const add = (re: RegExp, via: (m: RegExpExecArray) => string | null) => {
    for (let m = re.exec(text); m; m = re.exec(text)) uses.push({ code: m.groups!.code!, file, via: via(m) });
  };
  add(/(?<![A-Za-z])code:\s*'(?<code>[A-Za-z][A-Za-z0-9_-]*)'/g, () => null);
  add(/readonly code = '(?<code>[A-Za-z][A-Za-z0-9_-]*)'/g, () => null);
  add(/\b(?<fn>refused|failed|fail)\(\s*'(?<code>[A-Za-z][A-Za-z0-9_-]*)'/g, (m) => m.groups!.fn!);
  add(/'(?<code>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g, () => null);
  return uses.filter((u) => !NOT_CODES.has(u.code) && !isErrno(u.code));
}

const USES = productFiles().flatMap((f) => usesIn(f, readFileSync(join(REPO, f), 'utf8')));

describe('error codes in product code', () => {
  it('finds the codes it should (the grep works)', () => {
    const codes = new Set(USES.map((u) => u.code));
    for (const c of ['PORT_IN_USE', 'NO_KUBECONFIG', 'BUSY', 'INVALID_INPUT', 'HELPER_FAILED', 'AUTH_NO_AGENT', 'CLUSTER_UNREACHABLE', 'UPSTREAM_UNVERIFIED']) expect(codes).toContain(c);
    expect(usesIn('x.ts', "throw refused(\n  'NO_THING',\n  'msg');")).toContainEqual({ code: 'NO_THING', file: 'x.ts', via: 'refused' });
    expect(usesIn('x.ts', "{ code: 'BUSY' }, fail('METHOD', 'm')").map((u) => u.code)).toEqual(['BUSY', 'METHOD']);
    expect(usesIn('x.ts', "{ rcode: 'NXDOMAIN' }, { code: 'ENOENT' }")).toEqual([]);
  });

  it('uses only catalogued codes (add a missing one to shared/error-codes.ts)', () => {
    const missing = USES.filter((u) => !isErrorCode(u.code)).map((u) => `${u.code} (${u.file})`);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('refused(X) codes are catalogued with exit 3, failed(X) codes with exit 1', () => {
    const wrong = USES.filter((u) => u.via === 'refused' || u.via === 'failed')
      .filter((u) => isErrorCode(u.code))
      .filter((u) => !(ERROR_CODES[u.code as keyof typeof ERROR_CODES].exit as readonly number[]).includes(u.via === 'refused' ? EXIT.refused : EXIT.failedRolledBack))
      .map((u) => `${u.via}('${u.code}') in ${u.file}`);
    expect(wrong).toEqual([]);
  });
});
