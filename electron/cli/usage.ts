/** `k2s-dns --help` text. Exit codes follow shared/lifecycle-events.ts EXIT. */
export const USAGE = `k2s-dns — Kubernetes DNS for a native Linux K2s host

Usage:
  k2s-dns start [--kubeconfig PATH] [--engine adguard|dnsmasq] [--dnsproxy PATH]
                [--kubeswitch ADDR|none] [--upstream IP]... [--verify-name NAME]
                [--no-log-queries] [--json]
  k2s-dns stop [--on-drift keep|restore] [--json]
  k2s-dns uninstall [--on-drift keep|restore] [--json]
  k2s-dns status [--json]
  k2s-dns recover [--json]       finish or roll back an operation that was killed
  k2s-dns zones [--kubeconfig PATH] [--json]
  k2s-dns query NAME [--type A|AAAA|PTR|SRV|TXT|CNAME|MX|NS|SOA]
                [--server system|proxy|coredns|IP[:PORT]] [--tcp] [--json]
  k2s-dns diff [--json]
  k2s-dns doctor [--kubeconfig PATH] [--json]   read-only checks; exit 1 when any finding is an error
  k2s-dns ui [--port N] [--kubeconfig PATH]   the app in a browser (web mode, 127.0.0.1 only)
  k2s-dns app [--port N] [--kubeconfig PATH]  the desktop window where Electron runs, else web mode

start    saves /etc/resolv.conf, runs k2s-dnsproxy on 127.0.0.1:53 (and the KubeSwitch
         address), points the host at it and verifies; any failure rolls everything back.
stop     restores the saved resolver first, then stops the proxy.
uninstall  stop, then remove only K2s-owned DNS files.
zones    discovery only: the zones CoreDNS serves, their upstream and why (no root needed).

Kubeconfig order: --kubeconfig, /etc/kubernetes/admin.conf, the sudo user's ~/.kube/config,
$KUBECONFIG, ~/.kube/config.

Exit status: 0 done; 1 failed and rolled back (host as before); 2 usage;
3 refused by a precondition, nothing changed.
`;
