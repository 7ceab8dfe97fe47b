import { describe, expect, it } from 'vitest';
import type { Exec } from '../host/exec';
import type { LifecycleDeps } from './deps';
import { hostPaths } from './host-paths';
import { makeTestHost } from '../../../e2e/support/test-deps';

/** A temp-root host whose getent/resolvectl answers are scripted and recorded. */
async function withExec(nsswitch: string | null, answers: Record<string, { code: number; stdout: string; stderr?: string }>) {
  const h = await makeTestHost();
  const { writeFile } = await import('node:fs/promises');
  if (nsswitch !== null) await writeFile(`${h.root}/etc/nsswitch.conf`, nsswitch);
  const calls: string[] = [];
  const exec: Exec = {
    async run(file, args) {
      const line = [file, ...args].join(' ');
      calls.push(line);
      const a = answers[line] ?? { code: 2, stdout: '' };
      return { code: a.code, stdout: a.stdout, stderr: a.stderr ?? '' };
    },
  };
  const deps: LifecycleDeps = { ...h.deps, exec };
  return { deps, calls, cleanup: h.cleanup };
}

const NAME = 'kubernetes.default.svc.cluster.local';

describe('hostPaths: every lookup path host programs use', () => {
  it('files resolve [!UNAVAIL=return] dns on a resolved host: getent per DNS source, resolvectl, each nameserver but the skipped', async () => {
    const h = await withExec('hosts: files resolve [!UNAVAIL=return] dns myhostname\n', {
      [`getent -s resolve ahostsv4 ${NAME}`]: { code: 0, stdout: `172.21.0.1      STREAM ${NAME}\n172.21.0.1      DGRAM  \n` },
      [`getent -s dns ahostsv4 ${NAME}`]: { code: 2, stdout: '' },
      [`resolvectl query -4 --legend=no ${NAME}`]: { code: 0, stdout: `${NAME}: 172.21.0.1  -- link: k2s-proxy0\n` },
    });
    const paths = await hostPaths(h.deps, { resolved: true, resolvConfText: '# Managed by K2s\nnameserver 127.0.0.53\nnameserver 127.0.0.1\n', skip: ['127.0.0.1'] });
    expect(paths.map((p) => p.label)).toEqual([
      'nss resolve (getent -s resolve hosts, as nsswitch.conf lists it)',
      'nss dns (getent -s dns hosts, as nsswitch.conf lists it)',
      'systemd-resolved (resolvectl query, as nss-resolve asks it)',
      'nameserver 127.0.0.53 of /etc/resolv.conf (asked directly, as Go\'s resolver and dig do)',
    ]);
    const [resolve, dns, resolvectl] = await Promise.all(paths.slice(0, 3).map((p) => p.ask(NAME, 1000)));
    expect(resolve!.answers.map((a) => a.data)).toEqual(['172.21.0.1']);
    // getent exit 2 is "not found": an answer, not a failure to ask.
    expect(dns).toMatchObject({ rcode: 'NXDOMAIN', answers: [] });
    expect(resolvectl!.answers.map((a) => a.data)).toEqual(['172.21.0.1']);
    await h.cleanup();
  });

  it("without resolved, nss-resolve is no path (UNAVAIL falls through); glibc's default line without a hosts entry; resolvectl errors are reported", async () => {
    const h = await withExec('hosts: files resolve [!UNAVAIL=return] dns\n', {});
    expect((await hostPaths(h.deps, { resolved: false, resolvConfText: 'nameserver 127.0.0.1\n', skip: ['127.0.0.1'] })).map((p) => p.label)).toEqual(['nss dns (getent -s dns hosts, as nsswitch.conf lists it)']);
    await h.cleanup();
    const none = await withExec(null, { [`resolvectl query -4 --legend=no ${NAME}`]: { code: 1, stdout: '', stderr: 'Failed to resolve: Connection refused' } });
    const paths = await hostPaths(none.deps, { resolved: true, resolvConfText: '' });
    expect(paths.map((p) => p.label)[0]).toBe('nss dns (getent -s dns hosts, as nsswitch.conf lists it)');
    expect(await paths[1]!.ask(NAME, 1000)).toMatchObject({ rcode: 'ERROR', error: 'Failed to resolve: Connection refused' });
    await none.cleanup();
  });

  it("`files dns` exactly, the name not in /etc/hosts, no nscd: nss dns is getaddrinfo's only answerer, so no getent is spawned for it; any other case keeps the path", async () => {
    const { writeFile, mkdir } = await import('node:fs/promises');
    const dnsLabel = 'nss dns (getent -s dns hosts, as nsswitch.conf lists it)';
    const labels = async (nsswitch: string, hosts: string | null, nscd = false, name: string | null = NAME) => {
      const h = await withExec(nsswitch, {});
      if (hosts === null) await import('node:fs/promises').then((f) => f.rm(`${h.deps.fs.real('/etc/hosts')}`, { force: true }));
      else await writeFile(h.deps.fs.real('/etc/hosts'), hosts);
      if (nscd) {
        await mkdir(h.deps.fs.real('/var/run/nscd'), { recursive: true });
        await writeFile(h.deps.fs.real('/var/run/nscd/socket'), '');
      }
      const out = (await hostPaths(h.deps, { resolved: false, resolvConfText: '', ...(name ? { name } : {}) })).map((p) => p.label);
      await h.cleanup();
      return out;
    };
    const plain = '127.0.0.1 localhost\n::1 localhost ip6-localhost\n';
    expect(await labels('hosts:          files dns\n', plain)).toEqual([]);
    // The name in /etc/hosts (any case, an alias, a trailing dot): files may answer first.
    expect(await labels('hosts: files dns\n', `${plain}10.0.0.9 other Kubernetes.Default.svc.cluster.local.  # pinned\n`)).toEqual([dnsLabel]);
    // Only commented out: not named.
    expect(await labels('hosts: files dns\n', `${plain}# 10.0.0.9 ${NAME}\n`)).toEqual([]);
    expect(await labels('hosts: files dns\n', plain, true)).toEqual([dnsLabel]);
    expect(await labels('hosts: files [NOTFOUND=return] dns\n', plain)).toEqual([dnsLabel]);
    expect(await labels('hosts: files myhostname dns\n', plain)).toEqual([dnsLabel]);
    expect(await labels('hosts: dns files\n', plain)).toEqual([dnsLabel]);
    expect(await labels('hosts: files dns\n', null)).toEqual([dnsLabel]);
    expect(await labels('hosts: files dns\n', plain, false, null)).toEqual([dnsLabel]);
  });
});
