/** CLI remedies are lines the user can paste the way the README runs the CLI (`npx k2s-dns …`). */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { admGroupWays, appKubeconfigCommand, setAppVerb, asRootStartWays, cliCommand, clusterRunningHint, clusterStartFix, DRIFT_CHOICE, handResolverWays, resolverFileWays, setCliKubeconfig, setCliName, setCliRunningStart, setKubectlKubeconfig, setSandboxKubeconfig, networkOverrideWays, runningStartWith, shellCommand, upstreamQueryWays, upstreamStartWays } from './fix';
import { fixText, healthVerdict, verdictFix, type HealthAction } from './health';
import type { HealthHop } from './health-report';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('CLI remedies match the README', () => {
  it('builds `npx k2s-dns …`, with sudo for commands that change /etc/resolv.conf', () => {
    expect(cliCommand('diff')).toBe('npx k2s-dns diff');
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
    expect(DRIFT_CHOICE.restore.cli).toBe('sudo npx k2s-dns stop --on-drift restore');
    expect(README).toContain('npx k2s-dns start');
  });

  it('no health fix names a bare `k2s-dns` command the README never shows', () => {
    const actions: HealthAction[] = ['start', 'restart', 'restore', 'recover', 'wait', 'wait-watchdog', 'check-coredns', 'check-upstream', 'check-nsswitch'];
    for (const a of actions) {
      const cli = fixText(a, 'cli')!;
      // Every `k2s-dns` in a command is preceded by `npx ` (the word in "k2s-dns operation" is prose).
      expect(cli.replace(/k2s-dns operation/g, '')).not.toMatch(/(?<!npx )k2s-dns /);
      // The GUI never gets a command line.
      expect(fixText(a, 'gui')).not.toMatch(/k2s-dns|--on-drift|sudo/);
    }
  });

  it('CoreDNS down: the fix names what can differ from the API view (pod logs, the route to the ClusterIP), not the Cluster card', () => {
    for (const fe of ['gui', 'cli'] as const) {
      const fix = fixText('check-coredns', fe)!;
      // The window's commands come with the verdict (corednsCommands); without one it names the step in words.
      expect(fix).toContain(fe === 'cli' ? 'kubectl -n kube-system logs -l k8s-app=kube-dns' : 'read the CoreDNS pods’ logs');
      expect(fix).toContain('KubeSwitch route');
      expect(fix).not.toMatch(/Check the CoreDNS pods on the Overview/);
    }
  });

  // Walk 9 M1: the CLI fix was `kubectl … logs …, then … ip route get "$(kubectl … get service kube-dns …)"`:
  // no kubeconfig (kubectl asked localhost:8080), `ip route get ""` when that failed, and in the
  // sandbox neither ran where K2s DNS runs.
  describe('CoreDNS down: each command of the CLI fix works as printed', () => {
    const hop = (over: Partial<HealthHop>): HealthHop => ({ id: 'x', kind: 'system', target: 'getaddrinfo', name: 'kubernetes.default.svc.cluster.local', type: 'A', outcome: 'answer', ok: true, answers: [], rcode: 'NOERROR', reason: null, latencyMs: 1, ...over });
    const downHops = [
        hop({ id: 'system', kind: 'system', outcome: 'timeout', ok: false, rcode: 'TIMEOUT' }),
        hop({ id: 'resolver', kind: 'resolver', target: '/etc/resolv.conf', name: null, type: null, outcome: 'k2s', ok: true, answers: ['127.0.0.1'], rcode: null }),
        hop({ id: 'listener:127.0.0.1:53', kind: 'listener', target: '127.0.0.1:53', outcome: 'servfail', ok: false, rcode: 'SERVFAIL' }),
        hop({ id: 'kube-dns', kind: 'kube-dns', target: '172.21.0.10:53', outcome: 'timeout', ok: false, rcode: 'TIMEOUT' }),
    ];
    const down = healthVerdict({ state: 'running', interrupted: false, hops: downHops });
    afterEach(() => {
      setKubectlKubeconfig(null);
      setCliName('npx k2s-dns');
    });

    it('names the ClusterIP the check probed, never a nested kubectl, and the kubeconfig K2s DNS uses', () => {
      expect(down).toMatchObject({ cause: 'coredns-down', action: 'check-coredns', kubeDnsIp: '172.21.0.10' });
      setKubectlKubeconfig({ path: '/home/ada/.kube/k2s config', root: false });
      expect(verdictFix(down, 'cli')).toBe(
        "kubectl --kubeconfig '/home/ada/.kube/k2s config' -n kube-system logs -l k8s-app=kube-dns (pods can be Ready while the ClusterIP does not answer), then check the pod network / KubeSwitch route: ip route get 172.21.0.10",
      );
      expect(verdictFix(down, 'cli')).not.toContain('$(');
    });

    it('a kubeconfig only root reads: kubectl with sudo', () => {
      setKubectlKubeconfig({ path: '/etc/kubernetes/admin.conf', root: true });
      expect(verdictFix(down, 'cli')).toMatch(/^sudo kubectl --kubeconfig \/etc\/kubernetes\/admin\.conf -n kube-system logs -l k8s-app=kube-dns /);
    });

    // Walk 10 H1: the window said "(kubectl -n kube-system logs -l k8s-app=kube-dns)" and the route in
    // words. Its renderer knows neither the kubeconfig nor the wrapper: the verdict carries the commands
    // built where the check ran, and the window's fix shows them as code spans.
    it('the window: the verdict built where the check ran carries both commands, shown as code whatever the renderer knows', () => {
      setCliName('/tmp/k2sdns-app-X/k2s-dns', false, true);
      setKubectlKubeconfig({ path: '/tmp/k2sdns-kubeconfig-Y/k2s-test-4.kubeconfig', root: false });
      const checked = healthVerdict({ state: 'running', interrupted: false, hops: downHops });
      // Over IPC as JSON, into a renderer whose fix.ts was never told the wrapper or the kubeconfig.
      const received = JSON.parse(JSON.stringify(checked)) as typeof checked;
      setKubectlKubeconfig(null);
      setCliName('npx k2s-dns');
      const logs = "/tmp/k2sdns-app-X/k2s-dns sh -c 'kubectl --kubeconfig /tmp/k2sdns-kubeconfig-Y/k2s-test-4.kubeconfig -n kube-system logs -l k8s-app=kube-dns'";
      const route = "/tmp/k2sdns-app-X/k2s-dns sh -c 'ip route get 172.21.0.10'";
      expect(received.corednsCommands).toEqual({ logs, route });
      expect(verdictFix(received, 'gui')).toBe(
        `The Cluster card’s “pods ready” is the API’s view and can be green while the kube-dns ClusterIP does not answer: in a terminal, read the CoreDNS logs with \`${logs}\` and check the pod network / KubeSwitch route to the ClusterIP with \`${route}\``,
      );
      // The same two lines as the CLI's fix of the same verdict.
      setCliName('/tmp/k2sdns-app-X/k2s-dns', false, true);
      setKubectlKubeconfig({ path: '/tmp/k2sdns-kubeconfig-Y/k2s-test-4.kubeconfig', root: false });
      expect(verdictFix(received, 'cli')).toBe(`${logs} (pods can be Ready while the ClusterIP does not answer), then check the pod network / KubeSwitch route: ${route}`);
    });

    it('the window without the commands (no verdict) names no command that would not work as printed', () => {
      expect(fixText('check-coredns', 'gui')).not.toContain('kubectl');
      expect(verdictFix({ action: 'check-coredns' }, 'gui')).not.toContain('kubectl -n');
    });

    it("the sandbox's wrapper: both commands run through it, where K2s DNS runs", () => {
      setCliName('/tmp/k2sdns-app-X/k2s-dns', false, true);
      setKubectlKubeconfig({ path: '/tmp/k2sdns-kubeconfig-Y/k2s-test-4.kubeconfig', root: false });
      expect(verdictFix(down, 'cli')).toBe(
        "/tmp/k2sdns-app-X/k2s-dns sh -c 'kubectl --kubeconfig /tmp/k2sdns-kubeconfig-Y/k2s-test-4.kubeconfig -n kube-system logs -l k8s-app=kube-dns' (pods can be Ready while the ClusterIP does not answer), then check the pod network / KubeSwitch route: /tmp/k2sdns-app-X/k2s-dns sh -c 'ip route get 172.21.0.10'",
      );
    });
  });

  it('drift: the CLI names both choices as the banner does, Keep their file (the default) first', () => {
    expect(fixText('restore', 'cli')).toBe(
      '"Keep their file" (the default): sudo npx k2s-dns stop --on-drift keep && sudo npx k2s-dns start; or "Restore my original": sudo npx k2s-dns stop --on-drift restore && sudo npx k2s-dns start',
    );
  });
});

describe('a printed start restarts K2s DNS as it ran (fourth walk M2)', () => {
  afterEach(() => {
    setCliRunningStart(null);
    setCliKubeconfig(null);
  });

  it('drift while dnsmasq runs with its own upstream: both choices start dnsmasq again, not the Automatic engine', () => {
    setCliRunningStart([['--engine', 'dnsmasq'], ['--upstream', '192.0.2.54'], ['--on-network-change', 'keep']]);
    expect(fixText('restore', 'cli')).toBe(
      '"Keep their file" (the default): sudo npx k2s-dns stop --on-drift keep && sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --on-network-change keep; or "Restore my original": sudo npx k2s-dns stop --on-drift restore && sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --on-network-change keep',
    );
    expect(fixText('restart', 'cli')).toBe('sudo npx k2s-dns stop && sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --on-network-change keep');
    expect(fixText('start', 'cli')).toBe('sudo npx k2s-dns start --engine dnsmasq --upstream 192.0.2.54 --on-network-change keep');
  });

  it('each flag is one shell word, before --kubeconfig; a start with flags of its own asks for other options and keeps them', () => {
    setCliRunningStart([['--dnsproxy', "/opt/it's dnsproxy"]]);
    setCliKubeconfig('/home/u/k2s config');
    expect(cliCommand('start', true)).toBe("sudo npx k2s-dns start --dnsproxy '/opt/it'\\''s dnsproxy' --kubeconfig '/home/u/k2s config'");
    expect(cliCommand('start --upstream IP', true)).toBe("sudo npx k2s-dns start --upstream IP --kubeconfig '/home/u/k2s config'");
    expect(cliCommand('stop', true)).toBe('sudo npx k2s-dns stop');
    // A help line never: it reads no kubeconfig (walk 23: `zones --help --kubeconfig PATH`).
    expect(cliCommand('zones --help')).toBe('npx k2s-dns zones --help');
    expect(cliCommand('start -h', true)).toBe('sudo npx k2s-dns start -h');
    expect(cliCommand('doctor')).toBe("npx k2s-dns doctor --kubeconfig '/home/u/k2s config'");
  });

  it('nothing known (no state, or unreadable): the bare start', () => {
    setCliRunningStart([['--engine', 'dnsmasq']]);
    setCliRunningStart(null);
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start');
  });
});

describe('a fix\'s command of another program (sixth walk M2)', () => {
  afterEach(() => setCliName('npx k2s-dns'));

  it('installed or a checkout: as is, `sudo ` in front of a root one', () => {
    expect(shellCommand('chmod o-w /etc/resolv.conf', true)).toBe('sudo chmod o-w /etc/resolv.conf');
    expect(shellCommand('lsattr -d /etc/resolv.conf')).toBe('lsattr -d /etc/resolv.conf');
    setCliName('k2s-dns');
    expect(shellCommand('kill 812', true)).toBe('sudo kill 812');
  });

  it('under the sandbox\'s wrapper: through its `sh -c`, one shell word, so a paste in the host shell acts in the sandbox, not on the host\'s file', () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true);
    expect(shellCommand('chmod o-w /etc/resolv.conf', true)).toBe("/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'chmod o-w /etc/resolv.conf'");
    expect(shellCommand("echo 'nameserver 192.0.2.1' > /etc/resolv.conf", true)).toBe("/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'echo '\\''nameserver 192.0.2.1'\\'' > /etc/resolv.conf'");
    // A wrapper without the shell form (none exists today): as is, without sudo.
    setCliName('/opt/other/k2s-dns', false);
    expect(shellCommand('chmod o-w /etc/resolv.conf', true)).toBe('chmod o-w /etc/resolv.conf');
  });
});

describe('how to get a resolver file, in one function for every text that asks for one (walk 11 M1)', () => {
  afterEach(() => setCliName('npx k2s-dns'));

  it('on a host: reconnect, or write it as root with the documentation address in prose, no line to run as is (walk 7 M4)', () => {
    expect(resolverFileWays()).toBe("reconnect the network so NetworkManager or your DHCP client writes it again, or write it yourself as root (sudo) with a line such as `nameserver 192.0.2.1`, your router's or company DNS's IP address in place of 192.0.2.1");
    setCliName('k2s-dns');
    expect(resolverFileWays()).toContain('as root (sudo) with a line such as `nameserver 192.0.2.1`');
  });

  it('in the sandbox, whose network\'s nameserver is known: a whole command through its wrapper, which writes the sandbox\'s file, never the host\'s', () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    expect(resolverFileWays()).toBe("in the sandbox, `/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'rm -f /etc/resolv.conf && echo nameserver 192.0.2.53 > /etc/resolv.conf'` writes one naming its network's nameserver, 192.0.2.53");
    expect(resolverFileWays()).not.toContain('192.0.2.1');
  });

  it('under a wrapper that knows no nameserver: the prose, in the root shell its `sh` opens there', () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true);
    expect(resolverFileWays()).toBe("write it yourself with a line such as `nameserver 192.0.2.1`, your router's or company DNS's IP address in place of 192.0.2.1, in the root shell `/tmp/k2sdns-app-Ab12/k2s-dns sh` opens where K2s DNS runs (not on this host's own /etc/resolv.conf)");
  });

  it('a resolver file written back by hand (no saved original left): a whole `ln -sf` with the link name on a host, the sandbox\'s whole command there (new-user walk)', () => {
    // `ln -s TARGET` alone made ./stub-resolv.conf in the current directory.
    expect(handResolverWays()).toBe('a file with your nameserver, or the symlink your distribution uses, e.g. `ln -sf ../run/systemd/resolve/stub-resolv.conf /etc/resolv.conf` as root');
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    expect(handResolverWays()).toBe("in the sandbox, `/tmp/k2sdns-app-Ab12/k2s-dns sh -c 'rm -f /etc/resolv.conf && echo nameserver 192.0.2.53 > /etc/resolv.conf'` writes one naming its network's nameserver, 192.0.2.53");
    setCliName('/usr/local/bin/k2s-dns-wrap', false, true);
    expect(handResolverWays()).toBe("a file with your nameserver, or the symlink your distribution uses, e.g. `/usr/local/bin/k2s-dns-wrap sh -c 'ln -sf ../run/systemd/resolve/stub-resolv.conf /etc/resolv.conf'`");
  });

  it('an unreachable API: `k2s status` on a host; the sandbox, which has no k2s, names its own control (walk 11 L12)', () => {
    expect(clusterRunningHint()).toBe('is the cluster running (`k2s status`)?');
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    expect(clusterRunningHint()).toBe("is the sandbox's test API down? In a root shell in the checkout, `npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up` brings it back.");
  });

  it("the unreachable API's fix names the same command: `k2s start` on a host, the sandbox's control there (walk 12 H1)", () => {
    expect(clusterStartFix()).toBe("Start the cluster (`k2s start`) or check the kubeconfig's server address.");
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    expect(clusterStartFix()).toBe("Start the sandbox's test API (`npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up` in a root shell in the checkout) or check the kubeconfig's server address.");
    expect(clusterStartFix()).not.toContain('k2s start');
    // A wrapper that is not the sandbox (no nameserver known) is a host's K2s: `k2s start`.
    setCliName('/usr/local/bin/k2s-dns-wrap', false, true);
    expect(clusterStartFix()).toContain('`k2s start`');
  });

  it("in the sandbox, only its own kubeconfig's API is its test API: another kubeconfig's (a host's admin.conf) gets the cluster's words (walk 18 H1)", () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    setSandboxKubeconfig('/tmp/k2s-testbed-x/kubeconfig');
    try {
      expect(clusterRunningHint('/tmp/k2s-testbed-x/kubeconfig')).toBe("is the sandbox's test API down? In a root shell in the checkout, `npm run sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up` brings it back.");
      expect(clusterRunningHint('/etc/kubernetes/admin.conf')).toBe('is the cluster running (`k2s status`)?');
      expect(clusterStartFix('/etc/kubernetes/admin.conf')).toBe("Start the cluster (`k2s start`) or check the kubeconfig's server address.");
      expect(clusterStartFix('/tmp/k2s-testbed-x/kubeconfig')).toContain('sandbox:ctl -- --dir /tmp/k2sdns-app-Ab12 api up');
    } finally {
      setSandboxKubeconfig(null);
    }
  });
});

describe('a start or check naming a nameserver: a line to paste that cannot run unedited (walk 7 M4, new-user walk)', () => {
  afterEach(() => {
    setCliName('npx k2s-dns');
    setCliKubeconfig(null);
    setCliRunningStart(null);
  });

  it('on a host: --upstream <IP> and what replaces it, after --kubeconfig, with the running start\'s flags but not its upstreams (new-user walk: no --engine dnsmasq)', () => {
    setCliKubeconfig('/home/u/k2s config');
    setCliRunningStart([['--engine', 'dnsmasq']]);
    expect(upstreamStartWays()).toBe("`sudo npx k2s-dns start --engine dnsmasq --kubeconfig '/home/u/k2s config' --upstream <IP>` (replace <IP> with your nameserver's IP address)");
    expect(upstreamStartWays([['--on-network-change', 'keep']], [], 'the IP address of a nameserver that answers')).toBe("`sudo npx k2s-dns start --engine dnsmasq --on-network-change keep --kubeconfig '/home/u/k2s config' --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers)");
    // The running upstreams are replaced, a flag the line sets itself is named once, a valueless one kept.
    setCliRunningStart([['--engine', 'dnsmasq'], ['--upstream', '192.0.2.54'], ['--upstream', '192.0.2.55'], ['--no-log-queries'], ['--allow-zone', 'corp.example'], ['--on-network-change', 'keep']]);
    expect(upstreamStartWays([['--on-network-change', 'keep']])).toBe("`sudo npx k2s-dns start --engine dnsmasq --no-log-queries --allow-zone corp.example --on-network-change keep --kubeconfig '/home/u/k2s config' --upstream <IP>` (replace <IP> with your nameserver's IP address)");
    expect(runningStartWith([['--engine', 'adguard']])).toEqual([['--upstream', '192.0.2.54'], ['--upstream', '192.0.2.55'], ['--no-log-queries'], ['--allow-zone', 'corp.example'], ['--on-network-change', 'keep'], ['--engine', 'adguard']]);
  });

  it('the network override: stop first (a start while K2s DNS runs is refused, RUNNING_OTHER_OPTIONS), then the running options with keep and <IP>', () => {
    setCliRunningStart([['--engine', 'dnsmasq']]);
    expect(networkOverrideWays(['192.0.2.53'])).toBe('`sudo npx k2s-dns stop`, then `sudo npx k2s-dns start --engine dnsmasq --on-network-change keep --upstream <IP>` (replace <IP> with the IP address of a nameserver that answers)');
  });

  it('in the sandbox: its network\'s nameserver, unless it is one that failed', () => {
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    expect(upstreamStartWays()).toBe("`/tmp/k2sdns-app-Ab12/k2s-dns start --upstream 192.0.2.53` (the sandbox network's nameserver)");
    expect(upstreamStartWays([], ['192.0.2.53:53'])).toBe("`/tmp/k2sdns-app-Ab12/k2s-dns start --upstream <IP>` (replace <IP> with your nameserver's IP address)");
  });

  it('a check names the real address, port 53 left out; none known: --server <IP> and what replaces it', () => {
    expect(upstreamQueryWays('192.0.2.53:53')).toBe('`npx k2s-dns query kubernetes.io --server 192.0.2.53`');
    expect(upstreamQueryWays('[2001:db8::1]:53')).toBe('`npx k2s-dns query kubernetes.io --server 2001:db8::1`');
    expect(upstreamQueryWays('10.0.0.2:5353')).toBe('`npx k2s-dns query kubernetes.io --server 10.0.0.2:5353`');
    expect(upstreamQueryWays(null)).toBe("`npx k2s-dns query kubernetes.io --server <IP>` (replace <IP> with the nameserver's IP address)");
  });

  it('the printed line is one command for the shell once <IP> is replaced, and a syntax error (nothing runs) as pasted', () => {
    // bash -n parses without running: the line as printed, and with the address put in.
    const parses = (line: string) => spawnSync('bash', ['-n', '-c', line], { encoding: 'utf8' });
    for (const text of [upstreamStartWays([['--on-network-change', 'keep']]), upstreamQueryWays(null)]) {
      const line = /^`([^`]+)`/.exec(text)![1]!;
      expect(line.endsWith(' <IP>')).toBe(true);
      const asPasted = parses(line);
      expect(asPasted.status).toBe(2);
      expect(asPasted.stderr).toContain('syntax error');
      expect(parses(line.replace('<IP>', '192.0.2.1')).status).toBe(0);
    }
  });
});

describe('root and adm ways beside sudo: `su -c` where sudo is not installed (new-user walk)', () => {
  afterEach(() => {
    setCliName('npx k2s-dns');
    setCliRunningStart(null);
  });

  it('adm: usermod through sudo or `su -c "…"`, double quotes so $USER is this user, not root', () => {
    expect(admGroupWays()).toBe('be in the group adm (`sudo usermod -aG adm $USER`, or `su -c "usermod -aG adm $USER"` where sudo is not installed, then log out and in again)');
    setCliName('/usr/local/bin/k2s-dns-root', false);
    expect(admGroupWays()).toBe('be in the group adm (`usermod -aG adm $USER`, then log out and in again)');
    setCliName('/tmp/k2sdns-app-Ab12/k2s-dns', false, true, '192.0.2.53');
    expect(admGroupWays()).toBe('be in the group adm where K2s DNS runs');
  });

  it("a start with its flags, not a running start's", () => {
    setCliRunningStart([['--engine', 'dnsmasq']]);
    expect(asRootStartWays([['--upstream', '192.0.2.54']])).toBe("as root: `sudo npx k2s-dns start --upstream 192.0.2.54`, or `su -c 'npx k2s-dns start --upstream 192.0.2.54'` where sudo is not installed");
    expect(asRootStartWays([])).toBe("as root: `sudo npx k2s-dns start`, or `su -c 'npx k2s-dns start'` where sudo is not installed");
    expect(cliCommand('start', true)).toBe('sudo npx k2s-dns start --engine dnsmasq');
  });
});

describe('appKubeconfigCommand: the app restarted with a kubeconfig as it was started (new user: `npx k2s-dns ui` named `npm start -- --kubeconfig PATH`)', () => {
  afterEach(() => {
    setAppVerb(null);
    setCliName('npx k2s-dns');
  });
  it('under the CLI\'s ui or app verb (web mode): that command as this install runs the CLI', () => {
    setAppVerb('ui');
    expect(appKubeconfigCommand()).toBe('npx k2s-dns ui --kubeconfig PATH');
    setCliName('k2s-dns');
    expect(appKubeconfigCommand()).toBe('k2s-dns ui --kubeconfig PATH');
    setAppVerb('app');
    expect(appKubeconfigCommand()).toBe('k2s-dns app --kubeconfig PATH');
    // The line as typed (electron/cli/app-launch.ts), when the entry gives one.
    setAppVerb('app', 'node bin/k2s-dns.mjs app');
    expect(appKubeconfigCommand()).toBe('node bin/k2s-dns.mjs app --kubeconfig PATH');
  });
  it('another entry (the Electron window): npm start in a checkout, k2s-dns app installed, as before', () => {
    expect(appKubeconfigCommand()).toBe('npm start -- --kubeconfig PATH');
    setCliName('k2s-dns');
    expect(appKubeconfigCommand()).toBe('k2s-dns app --kubeconfig PATH');
  });
});
