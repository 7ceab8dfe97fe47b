import { describe, expect, it } from 'vitest';
import { inSandbox, uiBeforeNotice, uiUrlLines } from './ui-notice';

/** The environment the sandbox's k2s-dns runs the CLI with (e2e/sandbox-cli-wrapper.ts cliWrapperText). */
const SANDBOX = { K2S_DNS_CLI: '/tmp/k2sdns-app-Ab12/k2s-dns', K2S_DNS_SANDBOX_NAMESERVER: '192.0.2.53', K2S_DNS_SANDBOX_KUBECONFIG: '/tmp/k2sdns-bed-x/kubeconfig' };
const URL = 'http://127.0.0.1:8053/#token=abc';

describe('k2s-dns ui: where it runs', () => {
  it('new-user walk: through the sandbox\'s k2s-dns, no "this host\'s real /etc/resolv.conf" warning, and the URL is said to answer only inside the sandbox', () => {
    expect(inSandbox(SANDBOX)).toBe(true);
    expect(uiBeforeNotice(0, SANDBOX)).toBe("In the sandbox of npm run sandbox: Start, Stop and Uninstall change the sandbox's /etc/resolv.conf, not this host's.");
    const lines = uiUrlLines(URL, SANDBOX).split('\n');
    expect(lines[0]).toBe(`K2s DNS is open at ${URL} inside the sandbox only: that address answers in the sandbox's network namespace (its nsenter … bash shell), not in a browser out here.`);
    expect(lines[1]).toBe("For the app in your browser, open the URL npm run sandbox printed; the sandbox's k2s-dns is for the CLI commands (status, start, stop, query, …).");
    expect(uiUrlLines(URL, SANDBOX)).not.toContain('real /etc/resolv.conf');
  });

  it('elsewhere as before: root is warned about the real file, a user is not; the URL line is the plain one', () => {
    for (const env of [{}, { K2S_DNS_CLI: '/tmp/k2sdns-app-Ab12/k2s-dns' }, { K2S_DNS_SANDBOX_NAMESERVER: '192.0.2.53' }]) {
      expect(inSandbox(env), JSON.stringify(env)).toBe(false);
      expect(uiBeforeNotice(0, env)).toBe("Running as root: Start, Stop and Uninstall will change this host's real /etc/resolv.conf without asking (try them in `npm run sandbox` first).");
      expect(uiBeforeNotice(1000, env)).toBeNull();
      expect(uiUrlLines(URL, env)).toBe(`K2s DNS is open at ${URL}\n(127.0.0.1 only; the token after # is new for every launch and stays in that browser tab, never in a cookie. Ctrl-C stops it.)\n`);
    }
  });
});
