import { describe, expect, it } from 'vitest';
import { checkPort53 } from './port53';
import { setCliName } from '../../../shared/fix';
import { checkNameserverCount, checkNameserverLoop } from './nameservers';
import { checkKubeSwitch } from './kubeswitch';
import { useDoctorHosts } from '../../../e2e/support/doctor-test-host';

const host = useDoctorHosts();

describe('port-53', () => {
  it('errors naming the holder and its PID', async () => {
    const h = await host();
    h.world.portHolder = { pid: 812, command: '/usr/sbin/dnsmasq --conf-file=/etc/dnsmasq.conf' };
    const f = await checkPort53(await h.ctx());
    expect(f).toMatchObject({ id: 'port-53', severity: 'error', title: '127.0.0.1:53 is held by dnsmasq (PID 812)', detail: { proto: 'udp', pid: 812, ours: false } });
    expect(f.meaning).toBe('127.0.0.1:53/udp is held by /usr/sbin/dnsmasq --conf-file=/etc/dnsmasq.conf (PID 812), so the proxy cannot bind and k2s-dns start refuses (PORT_IN_USE).');
    // No system service named by its cgroup: only the kill, never a unit guessed from the process name.
    expect(f.fix).toBe('Stop that process (`sudo kill 812`) or make it listen elsewhere, then start K2s DNS.');
    // The app's words: a GUI step and a button, no k2s-dns command.
    expect(f.remedy).toEqual({ action: 'run-checks', gui: 'Stop dnsmasq (PID 812) or make it listen elsewhere (e.g. `sudo kill 812` in a terminal), then Check again and press Start.', cli: 'sudo kill 812, then sudo npx k2s-dns start' });
  });

  it('a holder in a system service (its cgroup names the unit): systemctl stop of that unit', async () => {
    const h = await host();
    h.world.portHolder = { pid: 930, command: '/usr/sbin/dnsmasq -x /run/dnsmasq/dnsmasq.pid', unit: 'dnsmasq.service' };
    const f = await checkPort53(await h.ctx());
    expect(f.fix).toBe('Stop that process (`sudo systemctl stop dnsmasq.service`: it runs as the system service dnsmasq.service) or make it listen elsewhere, then start K2s DNS.');
    expect(f.remedy).toEqual({ action: 'run-checks', gui: 'Stop dnsmasq (PID 930) or make it listen elsewhere (e.g. `sudo systemctl stop dnsmasq.service` in a terminal), then Check again and press Start.', cli: 'sudo systemctl stop dnsmasq.service, then sudo npx k2s-dns start' });
  });

  it('sixth walk M2: under the sandbox\'s wrapper the kill and systemctl go through its `sh -c` (the PID is the sandbox\'s, a kill in the host shell would hit another process)', async () => {
    const h = await host();
    h.world.portHolder = { pid: 812, command: '/usr/sbin/dnsmasq --conf-file=/etc/dnsmasq.conf' };
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true);
    try {
      const f = await checkPort53(await h.ctx());
      expect(f.fix).toBe("Stop that process (`/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'kill 812'`) or make it listen elsewhere, then start K2s DNS.");
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  it('is ok when the holder is our own running proxy', async () => {
    const h = await host();
    await h.start();
    h.world.portHolder = { pid: 4242, command: '/usr/sbin/dnsmasq --keep-in-foreground --conf-file=/etc/k2s/dnsmasq.conf' };
    const f = await checkPort53(await h.ctx());
    // The title must match the case: held by us, not "free" (a first-time user read both at once).
    expect(f).toMatchObject({ severity: 'ok', title: '127.0.0.1:53 is held by k2s-dnsproxy (ours)', detail: { pid: 4242, ours: true } });
  });

  it('is ok when nothing holds the port', async () => {
    const h = await host();
    expect(await checkPort53(await h.ctx())).toMatchObject({ severity: 'ok', title: '127.0.0.1:53 is free for the proxy', meaning: 'No other process holds 127.0.0.1:53.', fix: null });
  });

  it('errors without a PID when /proc cannot name a TCP listener (not root)', async () => {
    const h = await host();
    h.deps.tcpListening = async (address, port) => address === '127.0.0.1' && port === 53;
    expect(await checkPort53(await h.ctx())).toMatchObject({ severity: 'error', title: '127.0.0.1:53 is held by a process that could not be named', detail: { proto: 'tcp', pid: null } });
  });
});

describe('nameserver-loop', () => {
  it('errors when the only nameserver is 127.0.0.1 (UPSTREAM_LOOP)', async () => {
    const h = await host('nameserver 127.0.0.1\nsearch corp.example\n');
    const f = await checkNameserverLoop(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', detail: { nameservers: ['127.0.0.1'], loops: ['127.0.0.1'], listeners: ['127.0.0.1', '172.19.1.1'] } });
    expect(f.meaning).toBe('The original resolver lists 127.0.0.1, where the K2s DNS proxy itself listens: forwarding there would loop, so start refuses with UPSTREAM_LOOP.');
  });

  it('errors when there is no nameserver line (resolv.conf(5): the local machine)', async () => {
    const h = await host('search corp.example\n');
    const f = await checkNameserverLoop(await h.ctx());
    expect(f.severity).toBe('error');
    expect(f.meaning).toContain('NO_UPSTREAM');
    // The window's fix is one the window can do: its Start options carry the CLI's --upstream.
    expect(f.remedy?.gui).toBe('Point the original /etc/resolv.conf at your real nameserver (router or company DNS), or enter a nameserver that resolves Internet names under Start options → Upstreams, then Start (Stop first while K2s DNS runs).');
    // Walk 7 M4: no printed line runs unedited (`start --upstream IP` ran as is): it ends with <IP>, which the shell refuses, and says what replaces it.
    expect(f.fix).toBe("Point the original /etc/resolv.conf at your real nameserver (router or company DNS), or start with `sudo npx k2s-dns start --upstream <IP>` (replace <IP> with your nameserver's IP address).");
    expect(f.remedy?.cli).toBe(f.fix);
  });

  it('in the sandbox, whose network\'s nameserver is known, the start names it through the wrapper (walk 7 M4)', async () => {
    const h = await host('nameserver 127.0.0.1\n');
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    try {
      const f = await checkNameserverLoop(await h.ctx());
      expect(f.fix).toBe("Point the original /etc/resolv.conf at your real nameserver (router or company DNS), or start with `/tmp/k2sdns-app-Ab12/k2s-dns start --upstream 192.0.2.53` (the sandbox network's nameserver).");
    } finally {
      setCliName('npx k2s-dns');
    }
  });

  // Walk 7 H2: a NUL-byte file is start's NOT_RESOLVER_FILE (with or without --upstream), not "no nameserver line".
  it('a file that is not text: NOT_RESOLVER_FILE, the CLI\'s fix, and no Upstreams in the window', async () => {
    const h = await host('this is not\0 a resolver\n');
    const f = await checkNameserverLoop(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', title: '/etc/resolv.conf is no resolver file', detail: { reason: 'the new file is not text (it holds NUL bytes)' } });
    expect(f.meaning).toBe('/etc/resolv.conf is not text (it holds NUL bytes), so start refuses with NOT_RESOLVER_FILE, with or without --upstream: it will not save that file as your original, since stop would put it back byte for byte.');
    expect(f.fix).toBe("Replace /etc/resolv.conf with a resolver file that names your nameserver — reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with a line such as `nameserver 192.0.2.1`, your router's or company DNS's IP address in place of 192.0.2.1 — then start again; --upstream does not help, since the file itself would be saved and put back at stop.");
    expect(f.remedy?.gui).toContain('then press Check again. Start options → Upstreams does not help here');
    expect(f.remedy?.gui).not.toContain('under Start options → Upstreams, then Start');
  });

  it('a file whose only nameserver line glibc cannot use: NO_UPSTREAM (start refuses it without --upstream), naming the line', async () => {
    const h = await host('nameserver <your router or company DNS>\n');
    const f = await checkNameserverLoop(await h.ctx());
    expect(f).toMatchObject({ severity: 'error', title: 'Original resolver has no nameserver line' });
    expect(f.meaning).toBe('The original resolv.conf has no nameserver line glibc can use ("nameserver <your router or company DNS>": not an IP address), which means 127.0.0.1 (resolv.conf(5)), the proxy itself, so start refuses with NO_UPSTREAM.');
  });

  it('KubeSwitch address as nameserver: error when assigned, warn when not yet, ok with --kubeswitch none', async () => {
    const h = await host('nameserver 172.19.1.1\nnameserver 192.0.2.53\n');
    expect(await checkNameserverLoop(await h.ctx())).toMatchObject({ severity: 'warn', detail: { loops: ['172.19.1.1'] } });
    h.world.hostAddresses = ['127.0.0.1', '172.19.1.1'];
    expect((await checkNameserverLoop(await h.ctx())).severity).toBe('error');
    expect((await checkNameserverLoop(await h.ctx({ kubeSwitch: 'none' }))).severity).toBe('ok');
  });

  it('checks the saved original, not the K2s-owned file, while K2s DNS runs', async () => {
    const h = await host('nameserver 192.0.2.53\n');
    await h.start();
    expect(await checkNameserverLoop(await h.ctx())).toMatchObject({ severity: 'ok', detail: { nameservers: ['192.0.2.53'], loops: [] } });
  });

  it('leaves the systemd-resolved stub alone (not a listener of ours)', async () => {
    const h = await host('nameserver 127.0.0.53\noptions edns0 trust-ad\n');
    expect((await checkNameserverLoop(await h.ctx())).severity).toBe('ok');
  });
});

describe('nameserver-count', () => {
  it('warns for 4 nameservers, naming the one glibc never asked', async () => {
    const h = await host('nameserver 192.0.2.1\nnameserver 192.0.2.2\nnameserver 192.0.2.3\nnameserver 192.0.2.4\n');
    const f = checkNameserverCount(await h.ctx());
    expect(f).toMatchObject({ id: 'nameserver-count', severity: 'warn', detail: { ignoredByGlibc: ['192.0.2.4'] } });
    expect(f.meaning).toContain('MAXNS');
    expect(f.fix).toBe("Keep at most 3 nameserver lines in the original, or pin the upstreams with `sudo npx k2s-dns start --upstream <IP>` (replace <IP> with the IP address of one to use (one --upstream for each)).");
    expect(f.fix).not.toContain('IP`');
  });

  it('is ok for 3', async () => {
    const h = await host('nameserver 192.0.2.1\nnameserver 192.0.2.2\nnameserver 192.0.2.3\n');
    expect(checkNameserverCount(await h.ctx()).severity).toBe('ok');
  });
});

describe('kubeswitch', () => {
  it('warns when 172.19.1.1 is not assigned, ok when it is, info for none', async () => {
    const h = await host();
    const f = await checkKubeSwitch(await h.ctx());
    expect(f).toMatchObject({ id: 'kubeswitch', severity: 'warn', detail: { address: '172.19.1.1', assigned: ['127.0.0.1'] } });
    expect(f.meaning).toContain('k2s-proxy0');
    h.world.hostAddresses = ['127.0.0.1', '172.19.1.1'];
    expect((await checkKubeSwitch(await h.ctx())).severity).toBe('ok');
    expect((await checkKubeSwitch(await h.ctx({ kubeSwitch: 'none' }))).severity).toBe('info');
  });
});
