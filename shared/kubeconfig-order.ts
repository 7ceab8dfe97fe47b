/**
 * The kubeconfig order, stated once for the CLI help (electron/cli/usage.ts), the app's Start
 * options and the README. The order itself is chosen, with its reason, in
 * electron/core/cluster/kubeconfig-default.ts (and implemented by electron/core/cluster/kubeconfig.ts).
 * Pure module.
 */

/** The candidates in the order they are tried; the first that exists wins. */
export const KUBECONFIG_ORDER = [
  '--kubeconfig (then nothing else)',
  '/etc/kubernetes/admin.conf',
  "the pkexec or sudo caller's ~/.kube/config",
  '$KUBECONFIG (first existing entry)',
  '~/.kube/config',
  'the kubeconfig the running K2s DNS was started with',
] as const;

/** One sentence: "--kubeconfig (then nothing else), then /etc/kubernetes/admin.conf, then …". */
export const KUBECONFIG_ORDER_TEXT = KUBECONFIG_ORDER.join(', then ');
