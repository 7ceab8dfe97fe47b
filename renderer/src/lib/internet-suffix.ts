/**
 * The Query tester's Internet-name rule (shared/internet-suffix.ts icannSuffixOf, the one
 * `k2s-dns query` uses), loaded on demand: tldts and its Public Suffix List are ~275 kB minified,
 * which the window needs only once it explains a name that did not resolve. Vite puts a dynamic
 * import in a chunk of its own (out/renderer/assets), loaded from the same origin as the window's
 * (the CSP's 'self').
 */
import { useEffect, useState } from 'react';

type SuffixModule = typeof import('../../../shared/internet-suffix');

let loading: Promise<SuffixModule | null> | null = null;

/**
 * icannSuffixOf(`name`) once the chunk has loaded (`com` for example.com, null for
 * kubernetes.default); null as well when the chunk cannot load (the cluster-form hint then
 * stays, as before the rule).
 */
export async function loadIcannSuffix(name: string): Promise<string | null> {
  loading ??= import('../../../shared/internet-suffix').catch(() => null);
  const m = await loading;
  return m ? m.icannSuffixOf(name) : null;
}

/** loadIcannSuffix for `name` as React state: undefined until it answers for this name, null for no name. */
export function useIcannSuffix(name: string | null): string | null | undefined {
  const [got, setGot] = useState<{ name: string; suffix: string | null } | null>(null);
  useEffect(() => {
    if (name === null) return;
    let live = true;
    void loadIcannSuffix(name).then((suffix) => {
      if (live) setGot({ name, suffix });
    });
    return () => {
      live = false;
    };
  }, [name]);
  if (name === null) return null;
  return got?.name === name ? got.suffix : undefined;
}
