import { runCmd } from './run-cmd';

/**
 * A network namespace joined to the test bed's namespace by a veth pair, like a pod or a worker
 * VM: `eth0` inside with `podCidr`, `hostLink` outside with an optional `hostCidr`, and a host
 * route to the pod's address. The pod reaches every address of the bed's namespace through
 * its routes (the bed answers ARP for any of its addresses on any link, Linux arp_ignore=0).
 * Named netns live under /run/netns, which is the sandbox's private tmpfs.
 */
export interface PodNetnsOptions {
  /** `ip netns` name, e.g. `k2sdns-kubedns`. */
  name: string;
  /** Bed-side veth name (≤ 15 characters), e.g. `k2s-kdns0`. */
  hostLink: string;
  /** Address of eth0 in the pod, e.g. `172.21.0.10/32` or `172.19.1.50/24`. */
  podCidr: string;
  /** Address of the bed-side end, e.g. `169.254.21.1/32` (omit for none). */
  hostCidr?: string;
  /** Routes added in the pod via eth0 (`default`, `172.19.1.0/24`…). */
  podRoutes?: string[];
}

/** A pod network namespace made by createPodNetns. */
export interface PodNetns {
  name: string;
  /** The pod's address without prefix length. */
  address: string;
  /** Runs `ip netns exec NAME FILE ARGS` and returns stdout (throws with stderr on failure). */
  exec(file: string, args: readonly string[], timeoutMs?: number): Promise<string>;
  /** Deletes the veth pair and the namespace. Processes inside must be stopped first. Idempotent. */
  remove(): Promise<void>;
}

/** Creates the namespace and the veth pair (see PodNetnsOptions); undoes itself on failure. */
export async function createPodNetns(opts: PodNetnsOptions): Promise<PodNetns> {
  const { name, hostLink, podCidr } = opts;
  const address = podCidr.split('/')[0]!;
  let removed = false;
  const remove = async (): Promise<void> => {
    if (removed) return;
    removed = true;
    // Deleting the bed-side end deletes the pair; the namespace goes once nothing holds it.
    await runCmd('ip', ['link', 'del', hostLink]).catch(() => undefined);
    await runCmd('ip', ['netns', 'del', name]).catch(() => undefined);
  };
  // Leftovers of a bed that was killed mid-run in this sandbox would make `add` fail.
  await runCmd('ip', ['link', 'del', hostLink]).catch(() => undefined);
  await runCmd('ip', ['netns', 'del', name]).catch(() => undefined);
  try {
    await runCmd('ip', ['netns', 'add', name]);
    await runCmd('ip', ['link', 'add', hostLink, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name]);
    await runCmd('ip', ['link', 'set', hostLink, 'up']);
    if (opts.hostCidr) await runCmd('ip', ['addr', 'add', opts.hostCidr, 'dev', hostLink]);
    await runCmd('ip', ['route', 'add', `${address}/32`, 'dev', hostLink]);
    await runCmd('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
    await runCmd('ip', ['-n', name, 'addr', 'add', podCidr, 'dev', 'eth0']);
    await runCmd('ip', ['-n', name, 'link', 'set', 'eth0', 'up']);
    for (const r of opts.podRoutes ?? []) await runCmd('ip', ['-n', name, 'route', 'add', r, 'dev', 'eth0']);
  } catch (err) {
    await remove();
    throw err;
  }
  return {
    name,
    address,
    exec: (file, args, timeoutMs) => runCmd('ip', ['netns', 'exec', name, file, ...args], timeoutMs),
    remove,
  };
}
