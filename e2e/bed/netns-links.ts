import { runCmd } from './run-cmd';

/** The veth end that carries the KubeSwitch address, named like K2s's dummy link on native Linux. */
export const KUBESWITCH_LINK = 'k2s-proxy0';
/** The other veth end: the kube-dns ClusterIP and the "external" upstream live here. */
export const UPSTREAM_LINK = 'k2s-upstream0';

/** What ensureLinks changed, so removeLinks undoes exactly that and nothing else. */
export interface LinkChanges {
  createdPair: boolean;
  /** `[link, CIDR]` pairs this call added. */
  addedAddresses: [string, string][];
}

/** True when the network interface exists in the current namespace. */
export async function linkExists(name: string): Promise<boolean> {
  const out = await runCmd('ip', ['-o', 'link', 'show']);
  return out.split('\n').some((l) => new RegExp(`^\\d+: ${name}[@:]`).test(l));
}

/** CIDRs (`172.21.0.10/32`) assigned to `link`. */
export async function linkAddresses(link: string): Promise<string[]> {
  const out = await runCmd('ip', ['-o', 'addr', 'show', 'dev', link]);
  return [...out.matchAll(/\binet6? (\S+)/g)].map((m) => m[1] ?? '');
}

/**
 * Makes the veth pair and assigns `addresses` (link → CIDRs); reuses what exists (idempotent).
 * A veth pair because the `dummy` link type is not available on these machines (docs/toolchain.md "Network namespaces").
 * Both ends stay inside the sandbox's network namespace, so nothing is reachable from outside.
 */
export async function ensureLinks(addresses: Record<string, string[]>): Promise<LinkChanges> {
  const changes: LinkChanges = { createdPair: false, addedAddresses: [] };
  if (!(await linkExists(KUBESWITCH_LINK))) {
    await runCmd('ip', ['link', 'add', KUBESWITCH_LINK, 'type', 'veth', 'peer', 'name', UPSTREAM_LINK]);
    changes.createdPair = true;
  }
  for (const link of [KUBESWITCH_LINK, UPSTREAM_LINK]) await runCmd('ip', ['link', 'set', link, 'up']);
  for (const [link, cidrs] of Object.entries(addresses)) {
    const have = await linkAddresses(link);
    for (const cidr of cidrs) {
      if (have.includes(cidr)) continue;
      await runCmd('ip', ['addr', 'add', cidr, 'dev', link]);
      changes.addedAddresses.push([link, cidr]);
    }
  }
  return changes;
}

/** Undoes ensureLinks: deletes the pair if it created it, else only the addresses it added. */
export async function removeLinks(changes: LinkChanges): Promise<void> {
  if (changes.createdPair) {
    // Deleting one end of a veth pair deletes both, with their addresses.
    if (await linkExists(KUBESWITCH_LINK)) await runCmd('ip', ['link', 'del', KUBESWITCH_LINK]);
    return;
  }
  for (const [link, cidr] of changes.addedAddresses) {
    if ((await linkAddresses(link)).includes(cidr)) await runCmd('ip', ['addr', 'del', cidr, 'dev', link]);
  }
}
