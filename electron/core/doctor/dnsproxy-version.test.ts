/** Doctor's dnsproxy-version check on the real `dnsproxy --version` output (fixtures/logs/dnsproxy-version.txt) and, when built, the real binary. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureText } from '../../../e2e/support/log-fixtures';
import { symlink, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDnsproxyVersion, isPinnedDnsproxy } from './dnsproxy-version';
import { parseEngineVersion } from '../host/engine-version';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';

const host = useDoctorHosts();
const REAL = fileURLToPath(new URL('../../../.tools/bin/dnsproxy', import.meta.url));

describe('dnsproxy-version on real output', () => {
  it('reads v0.83.1 from the captured bytes (`dnsproxy version v0.83.1`, no colon) as pinned', () => {
    const text = fixtureText('dnsproxy-version.txt');
    expect(text).toBe('dnsproxy version v0.83.1\n');
    expect(parseEngineVersion('adguard', text)).toBe('v0.83.1');
    expect(isPinnedDnsproxy('0.83.1')).toBe(true);
  });

  it('is ok for a binary printing exactly those bytes', async () => {
    const h = await host();
    const text = fixtureText('dnsproxy-version.txt');
    await h.put('/opt/k2s/bin/dnsproxy', `#!/bin/sh\nprintf '%s' '${text}'\n`, 0o755);
    expect(await checkDnsproxyVersion(await h.ctx())).toMatchObject({ severity: 'ok', title: 'AdGuard dnsproxy v0.83.1, the version K2s pins', meaning: '/opt/k2s/bin/dnsproxy --version prints "dnsproxy version v0.83.1": the dnsproxy K2s ships.', detail: { binary: '/opt/k2s/bin/dnsproxy', version: '0.83.1', output: 'dnsproxy version v0.83.1', running: false } });
  });

  it('is ok for the real pinned binary (.tools/bin/dnsproxy)', async (ctx) => {
    if (!existsSync(REAL)) {
      console.log('skipped: .tools/bin/dnsproxy not built (scripts/setup.sh builds it)');
      ctx.skip();
    }
    const h = await host();
    await h.put('/opt/k2s/bin/dnsproxy', `#!/bin/sh\nexec '${REAL}' "$@"\n`, 0o755);
    expect(await checkDnsproxyVersion(await h.ctx())).toMatchObject({ severity: 'ok', detail: { version: '0.83.1' } });
  });
});

describe('dnsproxy-version finds the binary the way start does', () => {
  const V0831 = '#!/bin/sh\necho "dnsproxy version v0.83.1"\n';

  it('reports the running adguard proxy\'s own executable (/proc/PID/exe), not "not installed", when started with --dnsproxy PATH', async () => {
    const h = await host();
    // Started with `--dnsproxy /srv/tools/dnsproxy`: nothing at /opt/k2s/bin/dnsproxy.
    await h.put('/srv/tools/dnsproxy', V0831, 0o755);
    await mkdir(join(h.root, 'proc/5151'), { recursive: true });
    await symlink('/srv/tools/dnsproxy', join(h.root, 'proc/5151/exe'));
    const base = await h.ctx();
    expect(await checkDnsproxyVersion(base)).toMatchObject({ severity: 'info', title: 'AdGuard dnsproxy not installed; the dnsmasq engine will be used' });
    const running = { ...base, service: { running: true, pid: 5151 }, state: { ...(base.state ?? ({} as never)), engine: 'adguard' as const } };
    const f = await checkDnsproxyVersion(running);
    expect(f).toMatchObject({ severity: 'ok', title: 'AdGuard dnsproxy v0.83.1, the version K2s pins', detail: { binary: '/srv/tools/dnsproxy', running: true, version: '0.83.1', output: 'dnsproxy version v0.83.1' } });
    expect(f.meaning).toBe('/srv/tools/dnsproxy (the running k2s-dnsproxy) --version prints "dnsproxy version v0.83.1": the dnsproxy K2s ships.');
  });

  it('does not call a file that replaced the running proxy\'s executable since it started (/proc/PID/exe " (deleted)") the running one: it reports that file as start would run it', async () => {
    const h = await host();
    // Upgraded in place while the proxy ran: the kernel marks the running file's link " (deleted)".
    await h.put('/srv/tools/dnsproxy', '#!/bin/sh\necho "dnsproxy version v0.84.0"\n', 0o755);
    await mkdir(join(h.root, 'proc/5152'), { recursive: true });
    await symlink('/srv/tools/dnsproxy (deleted)', join(h.root, 'proc/5152/exe'));
    const base = await h.ctx();
    const f = await checkDnsproxyVersion({ ...base, service: { running: true, pid: 5152 }, state: { ...(base.state ?? ({} as never)), engine: 'adguard' as const } });
    expect(f).toMatchObject({ severity: 'warn', title: 'AdGuard dnsproxy v0.84.0 is not the v0.83.1 K2s pins', detail: { binary: '/srv/tools/dnsproxy', running: false, version: '0.84.0' } });
    expect(f.meaning).toMatch(/^\/srv\/tools\/dnsproxy --version prints "dnsproxy version v0.84.0", /);
  });

  it('takes --dnsproxy PATH (doctor option) like start does', async () => {
    const h = await host();
    await h.put('/srv/tools/dnsproxy', V0831, 0o755);
    expect(await checkDnsproxyVersion(await h.ctx({ dnsproxyPath: '/srv/tools/dnsproxy' }))).toMatchObject({ severity: 'ok', detail: { binary: '/srv/tools/dnsproxy', running: false } });
  });

  it('treats a non-executable file as not installed, as start does', async () => {
    const h = await host();
    await h.put('/opt/k2s/bin/dnsproxy', V0831, 0o644);
    expect(await checkDnsproxyVersion(await h.ctx())).toMatchObject({ severity: 'info', detail: { binary: '/opt/k2s/bin/dnsproxy', engine: 'dnsmasq' } });
  });
});
