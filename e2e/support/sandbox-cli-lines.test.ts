import { afterEach, describe, expect, it } from 'vitest';
import { sandboxCliLines } from './sandbox-cli-lines';
import { asRootWays, setCliKubeconfig, setCliName } from '../../shared/fix';

const CLI = '/tmp/k2sdns-app-x1/k2s-dns';
const KC = '/tmp/k2s-testbed-x2/kubeconfig';

describe("npm run sandbox's CLI lines (new user: its start line named --engine adguard --verify-name www.example.test, status's fix --kubeconfig only)", () => {
  afterEach(() => {
    setCliName('npx k2s-dns');
    setCliKubeconfig(null);
  });

  it('the start line is the one status names in its fix there: the wrapper, no sudo, the sandbox kubeconfig', () => {
    const lines = sandboxCliLines(CLI, KC);
    expect(lines).toEqual([`  ${CLI} status`, `  ${CLI} zones --kubeconfig ${KC}`, `  ${CLI} start --kubeconfig ${KC}`, `  ${CLI} stop`]);
    // What status says while stopped, in the sandbox's CLI (useCliInvocation with the wrapper, nameKubeconfig).
    expect(asRootWays('start')).toBe(`as root: \`${lines[2]!.trim()}\``);
  });
});
