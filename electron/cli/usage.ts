import { DRIFT_CHOICE } from '../../shared/fix';
import { KUBECONFIG_ORDER_TEXT } from '../../shared/kubeconfig-order';
import { ENGINE_NAMES } from '../../shared/engines/table';

/** `text` wrapped at `width` columns on spaces (terminal help). */
function wrap(text: string, width = 88): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** `k2s-dns --help` text. Exit codes follow shared/lifecycle-events.ts EXIT; the kubeconfig order is shared/kubeconfig-order.ts. */
export const USAGE = `k2s-dns — Kubernetes DNS for a native Linux K2s host

Usage:
  k2s-dns start [--kubeconfig PATH] [--engine ${ENGINE_NAMES.join('|')}] [--dnsproxy PATH]
                [--kubeswitch ADDR|none] [--upstream IP]... [--verify-name NAME]
                [--no-log-queries] [--allow-zone ZONE]... [--on-network-change follow|keep] [--json]
  k2s-dns stop [--on-drift keep|restore] [--restore newest|start] [--json]
  k2s-dns uninstall [--on-drift keep|restore] [--restore newest|start] [--json]
  k2s-dns status [--json]
  k2s-dns recover [--force] [--json]  finish or roll back an operation that was killed;
                                 --force: also tear down what is left without a journal
  k2s-dns zones [--kubeconfig PATH] [--allow-zone ZONE]... [--json]
  k2s-dns query NAME [--type A|AAAA|PTR|SRV|TXT|CNAME|MX|NS|SOA]
                [--server system|proxy|coredns|IP[:PORT]] [--tcp] [--json]
  k2s-dns diff [--json]
  k2s-dns queries [--lines N] [--json]  the newest rows of the exact query log (packets; root or group adm)
  k2s-dns doctor [--kubeconfig PATH] [--dnsproxy PATH] [--json]   read-only checks; exit 1 when any finding is an error
  k2s-dns ui [--port N] [--kubeconfig PATH]   the app in a browser (web mode, 127.0.0.1 only)
  k2s-dns app [--port N] [--kubeconfig PATH]  the desktop window where Electron runs, else web mode
  k2s-dns --version                           the version (k2s-dns 0.1.0)

start    saves /etc/resolv.conf, runs k2s-dnsproxy on 127.0.0.1:53 (and the KubeSwitch
         address), points the host at it and verifies; any failure rolls everything back.
stop     restores the saved resolver first, then stops the proxy.
uninstall  stop, then remove only K2s-owned DNS files.
zones    discovery only: the zones CoreDNS serves, their upstream and why, and the zones the
         zone policy keeps on the host's upstreams (public suffixes/TLDs, Internet names,
         reverse zones outside the cluster CIDRs, cluster CIDRs outside private space, the
         host's search domains) with why (no root needed).
--allow-zone ZONE  forward a refused zone marked allowable anyway; start remembers it in the
         state file while K2s DNS runs; stop forgets it on purpose (an allow is about the
         cluster data you saw), so give it again on the next start.
--kubeswitch ADDR  a private IPv4 address of this host (10/8, 172.16/12, 192.168/16,
         100.64/10; K2s uses 172.19.1.1) or none.

--on-network-change  when NetworkManager, resolvconf, a VPN client or systemd-resolved writes
         a new resolver file while K2s DNS runs: follow (the default) = its nameservers become
         the upstreams and it becomes the saved original that stop restores; keep = leave it
         as drift (as --on-drift decides at stop). Not followed either way: a file that is not
         a resolver's, lists no nameserver, or loops back to the proxy.
--on-drift  when another program rewrote /etc/resolv.conf while K2s DNS ran:
         keep = "${DRIFT_CHOICE.keep.label}" (the default), restore = "${DRIFT_CHOICE.restore.label}".
         Not given and their file names no nameserver but the proxy's (so keeping it would
         leave no DNS): stop restores the original and says so.
--restore  which saved copy stop puts back: newest (the default) = the saved original, after
         a followed network change the file the network wrote last; start = the file that
         was in place when K2s DNS started (kept once a follow replaced the saved original;
         also put back over a file another program wrote, unless --on-drift keep).

${wrap(`Kubeconfig order: ${KUBECONFIG_ORDER_TEXT}.`)}

Exit status: 0 done; 1 failed and rolled back (host as before); 2 usage;
3 refused by a precondition, nothing changed.
  status: 0 running or stopped; 1 degraded (an operation interrupted, k2s-dnsproxy not
  running, resolver changed by someone else, corrupt state, or cluster names do not resolve:
  the output says where and the fix); 4 starting or stopping (another operation runs; ask again); 5 stopped, but no
  name resolves with this host's own /etc/resolv.conf (its nameservers do not answer).
  stop, uninstall: 5 as well when --on-drift keep kept a file that leaves no name
  resolving (a warning RESOLVER_DOWN: K2s DNS is stopped as asked; status then exits 5).
`;
